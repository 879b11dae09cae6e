/**
 * A local stand-in for an OpenAI-compatible endpoint: a real HTTP server on 127.0.0.1 that speaks the
 * chat-completions wire format (POST <base>/chat/completions), answers from a script, one scripted answer per
 * request, and records every request so that tests can assert what the model was shown. With a responder
 * (`respond`), a request the script has no answer for is answered by reading it (test/support/fake-page-model.ts
 * answers page questions from the snapshot in the request).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  /** The message content; an object is sent as its JSON text. Default: '' */
  content?: string | object;
  /** Default: stop */
  finishReason?: string;
  /** Default: 100 prompt + 20 completion tokens; null sends no usage. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  /** Non-200 sends `{"error": {"message", "code"}}` with `errorCode`. Default: 200 */
  status?: number;
  errorCode?: string;
  /** The error message of a non-200 answer (OpenAI's 401 quotes part of the key here). */
  errorMessage?: string;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Sends no choice at all. */
  noChoices?: boolean;
  /** Sends this body as it is instead of a completion. */
  rawBody?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as text, exactly as it arrived. */
  raw: string;
  /** The body parsed as JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are read field by field in tests
  body: Record<string, any>;
}

export interface FakeChatCompletions {
  /** The API base to configure, `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: RecordedRequest[];
  /**
   * Appends answers for the next requests; a request with no answer left goes to the responder, or without one
   * gets HTTP 500 `no_scripted_answer`.
   */
  script(...answers: ScriptedAnswer[]): void;
  /** Answers each request the script has no answer for from the request's body (undefined: no responder). */
  respond(responder: Responder | undefined): void;
  /** Forgets requests and unused answers (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/** Reads a request's parsed body and says how to answer it. */
export type Responder = (body: RecordedRequest['body']) => ScriptedAnswer;

export const DEFAULT_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

export async function startFakeChatCompletions(): Promise<FakeChatCompletions> {
  const requests: RecordedRequest[] = [];
  let answers: ScriptedAnswer[] = [];
  let responder: Responder | undefined;
  let sequence = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(raw) as RecordedRequest['body'];
      } catch {
        // recorded as raw text only
      }
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, raw, body });
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        send(response, 404, { error: { message: 'not found', code: 'unknown_url' } });
        return;
      }
      const answer = answers.shift() ?? responder?.(body);
      if (answer === undefined) {
        send(response, 500, { error: { message: 'the test scripted no answer for this request', code: 'no_scripted_answer' } });
        return;
      }
      const reply = () => {
        if (!response.writable) return;
        if (answer.rawBody !== undefined) {
          response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(answer.rawBody);
          return;
        }
        const status = answer.status ?? 200;
        if (status !== 200) {
          send(response, status, { error: { message: answer.errorMessage ?? `scripted HTTP ${status}`, code: answer.errorCode ?? null } });
          return;
        }
        sequence += 1;
        const content = typeof answer.content === 'object' ? JSON.stringify(answer.content) : (answer.content ?? '');
        send(response, 200, {
          id: `chatcmpl-fake-${sequence}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: typeof body.model === 'string' ? body.model : 'unknown',
          choices: answer.noChoices ? [] : [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: answer.finishReason ?? 'stop' }],
          ...(answer.usage === null ? {} : { usage: answer.usage ?? DEFAULT_USAGE }),
        });
      };
      if (answer.delayMs === undefined) reply();
      else setTimeout(reply, answer.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...more) => {
      answers.push(...more);
    },
    respond: (next) => {
      responder = next;
    },
    reset: () => {
      requests.length = 0;
      answers = [];
      responder = undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
