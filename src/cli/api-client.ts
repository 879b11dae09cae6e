import type { ClientConfig } from '../config.js';
import { isErrorCode } from '../core/error-codes.js';
import { AppError, ErrorCode, isAppError, operationalError, userError } from '../core/errors.js';

/** The CLI's side of the REST API: JSON calls and NDJSON streams, with errors that say what went wrong where. */
export interface ApiClient {
  /** The API's base URL (QA_API_URL), as messages show it. */
  readonly apiUrl: string;
  /** A JSON call; resolves with the parsed body of a 2xx answer, rejects with an AppError (see `apiError`). */
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
  /** A GET of a text answer (a check's generated source); errors as `call`. */
  text(path: string): Promise<string>;
  /**
   * An NDJSON stream's complete lines, in order. Rejects with `api.stream_interrupted` when the connection drops;
   * a line cut short by the drop is never yielded. Aborting `signal` closes the stream (the reading rejects with that
   * same code; a caller that aborted knows why).
   */
  lines(path: string, options?: { signal?: AbortSignal }): AsyncGenerator<string, void, undefined>;
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  /** How long a JSON call may take (streams have no limit: a running job can be quiet for long). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The API's error body, `{"error": {"code", "message", "details"?}}`. */
interface ApiErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  const error = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  return typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}

/**
 * An error answer as an AppError with the API's code, status and details. The message reads
 * `<message> (<code>, HTTP <status>[, field: <details.field>])`: what the server said, and where to look. A code
 * this client's catalogue does not know (a newer server) is carried as `api.bad_response`; the message keeps it.
 */
export function apiError(status: number, body: ApiErrorBody): AppError {
  const { code, message, details } = body.error;
  const field = typeof details?.field === 'string' ? `, field: ${details.field}` : '';
  return new AppError({
    kind: status >= 500 ? 'operational' : 'user',
    code: isErrorCode(code) ? code : ErrorCode.ApiBadResponse,
    status,
    message: `${message} (${code}, HTTP ${status}${field})`,
    details,
  });
}

/** Whether trying again later may help: the service could not be reached, dropped the stream, or answered 5xx. */
export function isRetryable(error: unknown): boolean {
  if (!isAppError(error)) return false;
  return error.code === ErrorCode.ApiUnreachable || error.code === ErrorCode.ApiStreamInterrupted || (error.status ?? 0) >= 500;
}

/** The URL without credentials a user may have put in it. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** Node's fetch hides the reason (ECONNREFUSED, ENOTFOUND, …) in `cause`; an AggregateError has it in `code`. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as { message?: unknown; code?: unknown } | undefined) : undefined;
  for (const candidate of [cause?.message, cause?.code]) if (typeof candidate === 'string' && candidate !== '') return candidate;
  return error instanceof Error ? error.message : String(error);
}

/** A client for `config` (QA_API_URL, QA_API_KEY). Without a key it fails here, before any request is sent. */
export function createApiClient(config: ClientConfig, options: ApiClientOptions = {}): ApiClient {
  if (config.apiKey === undefined) {
    throw userError(
      ErrorCode.CliApiKeyMissing,
      'QA_API_KEY is not set: this command calls the QA API and needs an API key (an administrator issues one with `qa keys create --org <slug>`)',
    );
  }
  const fetchImpl = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const apiUrl = shownUrl(config.apiUrl);
  const headers = { authorization: `Bearer ${config.apiKey}` };

  async function send(method: string, path: string, init: { body?: unknown; accept: string; timeout: boolean; signal?: AbortSignal }): Promise<Response> {
    const request: RequestInit = {
      method,
      headers: { ...headers, accept: init.accept, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.timeout ? AbortSignal.timeout(timeoutMs) : init.signal,
    };
    let response: Response;
    try {
      response = await fetchImpl(`${config.apiUrl}${path}`, request);
    } catch (error) {
      throw operationalError(ErrorCode.ApiUnreachable, `Could not reach the QA API at ${apiUrl} (QA_API_URL): ${reasonOf(error)}`, { cause: error });
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  async function errorOf(response: Response): Promise<AppError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (isApiErrorBody(body)) return apiError(response.status, body);
    // Not the service's own answer: a proxy, or something else listening at QA_API_URL.
    return new AppError({
      kind: response.status >= 500 ? 'operational' : 'user',
      code: ErrorCode.ApiBadResponse,
      status: response.status,
      message: `The QA API at ${apiUrl} answered HTTP ${response.status} without an API error body; is QA_API_URL the service's address?`,
    });
  }

  async function bodyText(response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw operationalError(ErrorCode.ApiUnreachable, `The QA API at ${apiUrl} stopped answering mid-response: ${reasonOf(error)}`, { cause: error });
    }
  }

  return {
    apiUrl,

    async call(method, path, body) {
      const response = await send(method, path, { body, accept: 'application/json', timeout: true });
      const text = await bodyText(response);
      try {
        return text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch (error) {
        throw operationalError(ErrorCode.ApiBadResponse, `The QA API at ${apiUrl} answered ${method} ${path} with a body that is not JSON`, { cause: error });
      }
    },

    async text(path) {
      return bodyText(await send('GET', path, { accept: 'text/plain', timeout: true }));
    },

    async *lines(path, options = {}) {
      const response = await send('GET', path, { accept: 'application/x-ndjson', timeout: false, signal: options.signal });
      if (response.body === null) return;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          let chunk: Awaited<ReturnType<typeof reader.read>>;
          try {
            chunk = await reader.read();
          } catch (error) {
            throw operationalError(ErrorCode.ApiStreamInterrupted, `The event stream from ${apiUrl} was cut off: ${reasonOf(error)}`, { cause: error });
          }
          if (chunk.done) break;
          buffer += decoder.decode(chunk.value, { stream: true });
          for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
            const line = buffer.slice(0, end);
            buffer = buffer.slice(end + 1);
            if (line.trim() !== '') yield line;
          }
        }
        // The server ends every line with "\n"; text after the last one is a line cut short, read again on reconnect.
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    },
  };
}
