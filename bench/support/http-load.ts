/**
 * The bench's HTTP client (node:http, no dependencies): a closed-loop load of N keep-alive clients, and NDJSON
 * followers that timestamp every line as it arrives. Times are `performance.now()` of this process.
 */
import http from 'node:http';
import { percentile } from './stats.js';
import { runInChild } from './child-run.js';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** JSON text; a function gives each request its own body. */
  body?: string | (() => string);
  headers?: Record<string, string>;
  /** The status every answer must have; others are counted as errors. */
  expect: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** The first unexpected answer, to show what went wrong. */
  firstError?: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

interface Answer {
  status: number;
  text: string;
}

function send(agent: http.Agent, base: URL, call: Call): Promise<Answer> {
  const body = typeof call.body === 'function' ? call.body() : call.body;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: call.method,
        path: call.path,
        headers: {
          ...call.headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** One request, for setup steps (creating the job the followers follow, …). */
export async function callOnce(base: string, call: Call): Promise<Record<string, unknown>> {
  const agent = new http.Agent({ keepAlive: false });
  try {
    const answer = await send(agent, new URL(base), call);
    if (answer.status !== call.expect) throw new Error(`${call.method} ${call.path}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text) as Record<string, unknown>;
  } finally {
    agent.destroy();
  }
}

/**
 * `clients` keep-alive connections, each sending its next request as soon as the last is answered, for `warmupMs`
 * (not measured) then `seconds`. Latency is per request, from sending to the last byte of the answer.
 */
export async function closedLoop(base: string, call: Call, options: { clients: number; seconds: number; warmupMs: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.clients });
  const url = new URL(base);
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const begin = performance.now();
  const measureFrom = begin + options.warmupMs;
  const end = measureFrom + options.seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        while (performance.now() < end) {
          const sent = performance.now();
          let ok: boolean;
          try {
            const answer = await send(agent, url, call);
            ok = answer.status === call.expect;
            if (!ok) firstError ??= `${answer.status} ${answer.text.slice(0, 300)}`;
          } catch (error) {
            ok = false;
            firstError ??= (error as Error).message;
          }
          if (sent < measureFrom) continue;
          if (ok) latencies.push(performance.now() - sent);
          else errors++;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - measureFrom) / 1000;
  return {
    requests: latencies.length,
    errors,
    firstError,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
  };
}

/**
 * An offered load of `rate` requests/s over `clients` keep-alive connections (request i is due at i / rate; client
 * c sends the requests i ≡ c mod clients, each when due or as soon as its previous one is answered). Latency counts
 * from the due time, so an answer that comes late and delays the next request is not hidden. `perSecond` is what
 * was achieved: below `rate` when the server cannot keep up.
 */
export async function paced(
  base: string,
  call: Call,
  options: { clients: number; rate: number; seconds: number; warmupMs: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.clients });
  const url = new URL(base);
  const interval = 1000 / options.rate;
  const warmup = Math.round(options.warmupMs / interval);
  const total = warmup + Math.round(options.seconds * options.rate);
  const begin = performance.now() + 10;
  const due = (i: number) => begin + i * interval;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let lastAnswer = begin;
  try {
    await Promise.all(
      Array.from({ length: options.clients }, async (_, client) => {
        for (let i = client; i < total; i += options.clients) {
          const wait = due(i) - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          let ok: boolean;
          try {
            const answer = await send(agent, url, call);
            ok = answer.status === call.expect;
            if (!ok) firstError ??= `${answer.status} ${answer.text.slice(0, 300)}`;
          } catch (error) {
            ok = false;
            firstError ??= (error as Error).message;
          }
          const answered = performance.now();
          if (i < warmup) continue;
          lastAnswer = Math.max(lastAnswer, answered);
          if (ok) latencies.push(answered - due(i));
          else errors++;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (lastAnswer - due(warmup)) / 1000;
  return {
    requests: latencies.length,
    errors,
    firstError,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
  };
}

export interface Follower {
  /** `performance.now()` when each event index arrived, in arrival order. */
  arrivals: { index: number; at: number }[];
  /** Resolves when the stream ends cleanly; rejects if it is cut. */
  ended: Promise<void>;
  close(): void;
}

/** Opens an NDJSON event stream; resolves once the answer's headers are in (the follower is subscribed). */
export function follow(agent: http.Agent, base: string, path: string, headers: Record<string, string>): Promise<Follower> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: url.hostname, port: url.port, method: 'GET', path, headers }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET ${path}: ${response.statusCode}`));
        response.resume();
        return;
      }
      const arrivals: { index: number; at: number }[] = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
          arrivals.push({ index: (JSON.parse(buffer.slice(0, newline)) as { index: number }).index, at });
          buffer = buffer.slice(newline + 1);
        }
      });
      const ended = new Promise<void>((done, cut) => {
        response.on('end', () => done());
        response.on('error', cut);
        response.on('aborted', () => cut(new Error('stream cut')));
      });
      ended.catch(() => {}); // a cut stream is reported by whoever awaits `ended`
      resolve({ arrivals, ended, close: () => request.destroy() });
    });
    request.on('error', reject);
    request.end();
  });
}

/** One load for `loadElsewhere`: a closed loop, or a paced load at `rate` requests/s. The call's body is text. */
export type LoadOrder =
  | { kind: 'closed'; base: string; call: Call & { body?: string }; options: { clients: number; seconds: number; warmupMs: number } }
  | { kind: 'paced'; base: string; call: Call & { body?: string }; rate: number; options: { clients: number; seconds: number; warmupMs: number } };

/**
 * Runs a load in a child process (bench/support/load-process.ts) and resolves with its result: the client's
 * work (building requests, reading answers, timers) no longer shares the measured server's event loop.
 */
export function loadElsewhere(order: LoadOrder): Promise<LoadResult> {
  return runInChild(new URL('./load-process.ts', import.meta.url), order, 'load process');
}
