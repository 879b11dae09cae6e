/**
 * Follows an NDJSON stream of the service (a job's events, the organization's job updates) and resumes it with
 * `after` when the connection drops: the service ends a stream cleanly only when there is nothing more to send (a
 * finished job); a cut, a network error or a non-2xx other than a 4xx is retried with backoff from the last line
 * seen, so nothing is missed and nothing repeats. A 4xx (an unknown job, a session that ended) stops it with the
 * API's error. Plain `fetch` + `TextDecoderStream`: EventSource speaks SSE, not NDJSON.
 */
import type { z } from 'zod';
import { ApiError, errorOf } from './client.js';

export type StreamState = 'connecting' | 'open' | 'retrying' | 'ended';

export interface FollowOptions<S extends z.ZodType> {
  /** The stream's URL resuming after `after` (undefined: from its start). */
  url: (after: string | undefined) => string;
  /** Each line is validated with it; a line that does not parse is skipped (and reported by `onInvalid`). */
  schema: S;
  /** The resume position a line carries, if any. */
  cursorOf: (line: z.output<S>) => string | undefined;
  onLine: (line: z.output<S>) => void;
  onState?: (state: StreamState, error?: ApiError) => void;
  onInvalid?: (text: string) => void;
  signal: AbortSignal;
  /** Where to start; later resumptions use the last line's cursor. */
  after?: string;
  /** Wait before the n-th retry in a row (from 1). Default: 0.5 s doubling to 10 s. */
  retryDelayMs?: (attempt: number) => number;
  fetch?: typeof fetch;
}

export const defaultRetryDelay = (attempt: number) => Math.min(10_000, 500 * 2 ** (attempt - 1));

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Splits decoded text into lines, keeping a partial last line for the next chunk. */
export function lineSplitter(): (chunk: string) => string[] {
  let rest = '';
  return (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    return parts.filter((line) => line.trim() !== '');
  };
}

/**
 * Resolves when the stream ended cleanly or `signal` aborted; rejects with the ApiError of a 4xx answer. Network
 * trouble never rejects: it retries.
 */
export async function followStream<S extends z.ZodType>(options: FollowOptions<S>): Promise<void> {
  const { signal, onState = () => {}, retryDelayMs = defaultRetryDelay } = options;
  const doFetch = options.fetch ?? fetch;
  let after = options.after;
  let failures = 0;
  while (!signal.aborted) {
    onState(failures === 0 ? 'connecting' : 'retrying');
    try {
      const response = await doFetch(options.url(after), { credentials: 'same-origin', headers: { accept: 'application/x-ndjson' }, signal });
      if (response.status >= 400 && response.status < 500) {
        const error = await errorOf(response);
        onState('ended', error);
        throw error;
      }
      if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
      onState('open');
      const split = lineSplitter();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const text of split(value)) {
          let parsed: ReturnType<S['safeParse']>;
          try {
            parsed = options.schema.safeParse(JSON.parse(text)) as ReturnType<S['safeParse']>;
          } catch {
            options.onInvalid?.(text);
            continue;
          }
          if (!parsed.success) {
            options.onInvalid?.(text);
            continue;
          }
          const line = parsed.data as z.output<S>;
          after = options.cursorOf(line) ?? after;
          failures = 0;
          options.onLine(line);
        }
      }
      // A clean end: the service has nothing more to send.
      onState('ended');
      return;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (signal.aborted) return;
      failures += 1;
      onState('retrying');
      await sleep(retryDelayMs(failures), signal);
    }
  }
}
