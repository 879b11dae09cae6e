/**
 * One chat-completions request over HTTP (https://platform.openai.com/docs/api-reference/chat/create), and what
 * came of it, sorted the way the planner retries: an answer to read, an answer that is unusable as it arrived
 * (cut off, refused, no choice, too large: worth one more try), a failure worth one more try (429, 5xx, network,
 * timeout), or a failure that is a configuration problem (any other 4xx: retrying cannot help).
 *
 * The API key goes into the Authorization header and nowhere else: reasons are built from status codes and fixed
 * words, never from the endpoint's error text (OpenAI echoes part of a wrong key in its 401 message).
 */
import * as z from 'zod';

/** The largest response body read; a chat completion with a plan is a few KiB. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Of an error response only the `error.code` is read, so far less is needed. */
const MAX_ERROR_BYTES = 64 * 1024;

export interface ChatClientOptions {
  /** The API base, e.g. https://api.openai.com/v1 (a trailing slash is tolerated). */
  url: string;
  apiKey: string;
  /** Per request, from sending it to the last byte of the answer. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/**
 * Why a request did not give a usable answer. `key` tells causes apart ("length", "http_500"): the same key twice
 * is reported as `twice`, different ones as `reason`, then `reason`.
 */
export interface Problem {
  key: string;
  reason: string;
  twice: string;
}

export type ChatResult =
  | { kind: 'answer'; content: string; usage: Usage }
  | { kind: 'invalid'; problem: Problem; usage: Usage }
  | { kind: 'failed'; problem: Problem; retry: boolean; retryAfterMs?: number };

export interface ChatClient {
  complete(body: Record<string, unknown>): Promise<ChatResult>;
}

/** The fields read from a completion; anything else the endpoint sends is ignored. */
const completionSchema = z.object({
  choices: z.array(
    z.object({
      message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: z
    .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish(), total_tokens: z.number().nullish() })
    .nullish(),
});

const NO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

export function createChatClient(options: ChatClientOptions): ChatClient {
  const endpoint = `${options.url.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = options.fetch ?? fetch;
  const timedOut: Problem = {
    key: 'timeout',
    reason: `the planner endpoint did not answer within ${options.timeoutMs} ms`,
    twice: `the planner endpoint did not answer within ${options.timeoutMs} ms, twice`,
  };

  return {
    async complete(body) {
      const signal = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal,
          redirect: 'error',
        });
      } catch (error) {
        return signal.aborted ? { kind: 'failed', problem: timedOut, retry: true } : networkFailure(error, 'the planner endpoint could not be reached');
      }

      if (!response.ok) {
        const read = await readBounded(response, MAX_ERROR_BYTES).catch(() => undefined);
        if (signal.aborted) return { kind: 'failed', problem: timedOut, retry: true };
        return httpFailure(response, read?.text);
      }
      let read: { text: string; complete: boolean };
      try {
        read = await readBounded(response, MAX_RESPONSE_BYTES);
      } catch (error) {
        return signal.aborted ? { kind: 'failed', problem: timedOut, retry: true } : networkFailure(error, "the planner endpoint's answer broke off");
      }
      if (!read.complete) {
        const size = `${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`;
        return invalid('too_large', `the planner endpoint's answer was larger than ${size}`, `the planner endpoint's answer was larger than ${size}, twice`);
      }
      return readCompletion(read.text);
    },
  };
}

function invalid(key: string, reason: string, twice: string, usage: Usage = NO_USAGE): ChatResult {
  return { kind: 'invalid', problem: { key, reason, twice }, usage };
}

/** A 2xx body → the answer's content, or why it cannot be read. */
function readCompletion(text: string): ChatResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return invalid('body_not_json', 'the planner endpoint answered with a body that is not JSON', 'the planner endpoint answered twice with a body that is not JSON');
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) {
    return invalid('not_completion', 'the planner endpoint answered with something that is not a chat completion', 'the planner endpoint answered twice with something that is not a chat completion');
  }
  const usage = usageOf(parsed.data.usage);
  const choice = parsed.data.choices[0];
  if (choice === undefined) return invalid('no_choice', 'the planner endpoint answered without a choice', 'the planner endpoint answered twice without a choice', usage);
  const finish = choice.finish_reason ?? 'none';
  if (finish === 'length') {
    return invalid('length', "the model's answer was cut off (finish_reason length)", "the model's answer was cut off twice (finish_reason length)", usage);
  }
  if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '') {
    return invalid('refusal', 'the model refused to answer', 'the model refused to answer twice', usage);
  }
  if (finish !== 'stop') {
    const word = /^[a-z_]{1,40}$/.test(finish) ? finish : 'unknown';
    return invalid(`finish_${word}`, `the model stopped without finishing its answer (finish_reason ${word})`, `the model stopped twice without finishing its answer (finish_reason ${word})`, usage);
  }
  if (choice.message.content === undefined || choice.message.content === null) {
    return invalid('no_content', "the model's answer had no content", "the model's answer had no content twice", usage);
  }
  return { kind: 'answer', content: choice.message.content, usage };
}

function usageOf(usage: z.infer<typeof completionSchema>['usage']): Usage {
  const count = (value: number | null | undefined) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);
  const promptTokens = count(usage?.prompt_tokens);
  const completionTokens = count(usage?.completion_tokens);
  const total = count(usage?.total_tokens);
  return { promptTokens, completionTokens, totalTokens: total === 0 ? promptTokens + completionTokens : total };
}

/** 429 and 5xx may pass; any other status is the configuration (URL, model, key) and will not. */
function httpFailure(response: Response, text: string | undefined): ChatResult {
  const status = response.status;
  const code = errorCode(text);
  const shown = `HTTP ${status}${code === undefined ? '' : ` (${code})`}`;
  const retry = status === 429 || status >= 500;
  const reason = retry
    ? `the planner endpoint answered ${shown}`
    : `the planner endpoint answered ${shown}; check PLANNER_URL, PLANNER_MODEL and PLANNER_API_KEY`;
  return {
    kind: 'failed',
    retry,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
    problem: { key: `http_${status}`, reason, twice: `the planner endpoint answered ${shown} twice` },
  };
}

/** OpenAI's `{"error": {"code": "invalid_api_key"}}`: a word, safe to show; the message is never shown. */
function errorCode(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' && /^[a-z0-9_.-]{1,64}$/i.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds (the HTTP-date form is not worth the parsing here). */
function retryAfterMs(header: string | null): number | undefined {
  return header !== null && /^\d{1,6}$/.test(header.trim()) ? Number(header.trim()) * 1000 : undefined;
}

/** A failed connection or read, to be retried: "<what> (ECONNRESET)", keyed by the error's code. */
function networkFailure(error: unknown, what: string): ChatResult {
  const code = networkCode(error);
  return { kind: 'failed', retry: true, problem: { key: `network_${code}`, reason: `${what} (${code})`, twice: `${what} twice (${code})` } };
}

/** A Node network error's code (ECONNREFUSED, ENOTFOUND, …), or a fixed word; never the error's own text. */
function networkCode(error: unknown): string {
  // Duck-typed: fetch's errors come from another realm under some runners, where `instanceof Error` is false.
  const field = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
  const code = field(field(error, 'cause'), 'code') ?? field(error, 'code');
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'network error';
}

/** The body as text, reading at most `limit` bytes; `complete` is false when there was more. */
async function readBounded(response: Response, limit: number): Promise<{ text: string; complete: boolean }> {
  if (response.body === null) return { text: '', complete: true };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { text: '', complete: false };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), complete: true };
}
