/**
 * The dashboard's one way to call the service: same-origin `/api` routes with the session cookie, the session's CSRF
 * token on every write, errors read from the API's `{ error: { code, message } }`, and every answer validated with
 * the response schema the server itself answers with (src/api/schemas, shared, never copied).
 */
import type { z } from 'zod';
import { errorResponseSchema } from '../../../src/api/schemas/common.js';
import { connection } from '../connection.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;

/** Set from `GET /api/session`; sent as `x-csrf-token` on every state-changing call. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** The headers of a call: JSON, and the CSRF token when it changes state. */
export function requestHeaders(method: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (hasBody) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken !== undefined) headers['x-csrf-token'] = csrfToken;
  return headers;
}

/** The API's error of a failed answer, or one that says what came back instead. */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const { error } = errorResponseSchema.parse(JSON.parse(text));
    return new ApiError(response.status, error.code, error.message, error.details);
  } catch {
    return new ApiError(response.status, 'http.unexpected', `The service answered ${response.status} ${response.statusText}`.trim());
  }
}

/** Calls `path` and returns its answer, validated; 204 answers `undefined` (pass a schema that accepts it). */
export async function api<S extends z.ZodType>(schema: S, path: string, { method = 'GET', body, signal }: CallOptions = {}): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: requestHeaders(method, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    connection.down();
    throw new ApiError(0, 'network.unreachable', 'The service cannot be reached; retrying when the connection is back');
  }
  connection.up();
  if (!response.ok) throw await errorOf(response);
  const payload: unknown = response.status === 204 ? undefined : await response.json();
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(response.status, 'response.invalid', `The service's answer to ${method} ${path} was not what this page expects`);
  return parsed.data;
}

/** A query string of the defined values, `?a=1&b=2`, or ''. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
