/**
 * The dashboard's NDJSON follower (web/src/api/follow-stream.ts) against a real HTTP server on loopback: a
 * connection cut mid-stream is resumed with `after` = the last index seen (nothing missed, nothing twice), a clean
 * end stops, a 4xx rejects with the API's error, and an abort stops without another request.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ApiError } from '../../../web/src/api/client.js';
import { followStream, lineSplitter, type StreamState } from '../../../web/src/api/follow-stream.js';

const lineSchema = z.object({ index: z.number().int(), text: z.string() });
type Line = z.output<typeof lineSchema>;
const ndjson = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${JSON.stringify({ index: from + i, text: `line ${from + i}` })}\n`).join('');

let server: Server | undefined;

async function serve(handler: (req: IncomingMessage, res: ServerResponse, after: string | null, call: number) => void): Promise<{ base: string; afters: (string | null)[] }> {
  const afters: (string | null)[] = [];
  server = createServer((req, res) => {
    const after = new URL(req.url ?? '/', 'http://x').searchParams.get('after');
    afters.push(after);
    handler(req, res, after, afters.length);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, afters };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function follow(base: string, extra: { signal?: AbortSignal; onLine?: (line: Line) => void; after?: string } = {}) {
  const lines: Line[] = [];
  const states: StreamState[] = [];
  const done = followStream({
    url: (after) => `${base}/events${after === undefined ? '' : `?after=${after}`}`,
    schema: lineSchema,
    cursorOf: (line) => String(line.index),
    onLine: (line) => {
      lines.push(line);
      extra.onLine?.(line);
    },
    onState: (state) => states.push(state),
    signal: extra.signal ?? new AbortController().signal,
    after: extra.after,
    retryDelayMs: () => 10,
  });
  return { lines, states, done };
}

describe('followStream', () => {
  it('resumes a stream cut mid-line with after = the last index seen: every line once, in order', async () => {
    const { base, afters } = await serve((_req, res, after, call) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (call === 1) {
        // Lines 0–4, then half of line 5, then the connection is cut (as a restarting service or a proxy does).
        res.write(ndjson(0, 4) + ndjson(5, 5).slice(0, 12), () => {
          setTimeout(() => res.destroy(), 50);
        });
        return;
      }
      res.end(ndjson(Number(after) + 1, 9));
    });
    const { lines, states, done } = follow(base);
    await done;
    expect(lines.map((line) => line.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(afters).toEqual([null, '4']);
    expect(states).toContain('retrying');
    expect(states.at(-1)).toBe('ended');
  });

  it('starts after the given index and resumes after several cuts without repeating a line', async () => {
    const { base, afters } = await serve((_req, res, after, call) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const from = Number(after) + 1;
      if (call < 3) {
        res.write(ndjson(from, from + 1), () => setTimeout(() => res.destroy(), 30));
        return;
      }
      res.end(ndjson(from, 12));
    });
    const { lines, done } = follow(base, { after: '4' });
    await done;
    expect(lines.map((line) => line.index)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(afters).toEqual(['4', '6', '8']);
  });

  it('retries a 5xx answer from where the stream was', async () => {
    const { base, afters } = await serve((_req, res, after, call) => {
      if (call === 2) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"service.unavailable","message":"restarting"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (call === 1) res.write(ndjson(0, 2), () => setTimeout(() => res.destroy(), 30));
      else res.end(ndjson(Number(after) + 1, 3));
    });
    const { lines, done } = follow(base);
    await done;
    expect(lines.map((line) => line.index)).toEqual([0, 1, 2, 3]);
    expect(afters).toEqual([null, '2', '2']);
  });

  it('stops at a clean end: one request, the state ends "ended"', async () => {
    const { base, afters } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // A line split over two writes is read whole.
      const text = ndjson(0, 2);
      res.write(text.slice(0, 20));
      setTimeout(() => res.end(text.slice(20)), 20);
    });
    const { lines, states, done } = follow(base);
    await done;
    await wait(50);
    expect(lines).toEqual([
      { index: 0, text: 'line 0' },
      { index: 1, text: 'line 1' },
      { index: 2, text: 'line 2' },
    ]);
    expect(afters).toEqual([null]);
    expect(states).toEqual(['connecting', 'open', 'ended']);
  });

  it("rejects a 404 with the API's error and asks no more", async () => {
    const { base, afters } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'job.not_found', message: 'Job not found' } }));
    });
    const { done } = follow(base);
    const error = await done.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'job.not_found', message: 'Job not found' });
    await wait(50);
    expect(afters).toEqual([null]);
  });

  it('stops when aborted, mid-stream, without another request', async () => {
    const { base, afters } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(ndjson(0, 0)); // and the connection stays open
    });
    const controller = new AbortController();
    const { lines, done } = follow(base, { signal: controller.signal, onLine: () => controller.abort() });
    await done;
    await wait(80);
    expect(lines.map((line) => line.index)).toEqual([0]);
    expect(afters).toEqual([null]);
  });

  it('skips a line that is not JSON or not the schema, and goes on', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${ndjson(0, 0)}not json\n{"index":"one"}\n${ndjson(1, 1)}`);
    });
    const { lines, done } = follow(base);
    await done;
    expect(lines.map((line) => line.index)).toEqual([0, 1]);
  });
});

describe('lineSplitter', () => {
  it('keeps a partial last line for the next chunk and drops blank lines', () => {
    const split = lineSplitter();
    expect(split('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(split(':2}\n\n')).toEqual(['{"b":2}']);
    expect(split('')).toEqual([]);
  });
});
