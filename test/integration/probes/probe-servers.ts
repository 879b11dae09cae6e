/** Local HTTPS servers for the probe client's tests: real TLS on loopback, with what they were sent recorded. */
import { expect } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { ProbeResult } from '../../../src/probes/probe-client.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface ProbeServer {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Requests that reached the handler, oldest first. */
  requests: RecordedRequest[];
  /** TCP connections accepted so far, a TLS handshake or not: zero proves the client never connected. */
  connections(): number;
  /** Resolves once more than `count` requests have arrived. */
  requestArrived(count: number): Promise<void>;
  /** Resolves once no connection is open: the client closed what it opened. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startProbeServer(
  tls: { key: string; cert: string },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<ProbeServer> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const events = new EventEmitter();
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    events.emit('change');
    handler(req, res);
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      events.emit('change');
    });
  });
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        events.off('change', check);
        resolve();
      };
      events.on('change', check);
      check();
    });
  server.on('tlsClientError', () => undefined); // an untrusting client hangs up mid-handshake; that is the test
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    requestArrived: (count) => until(() => requests.length > count),
    idle: () => until(() => sockets.size === 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}

/** A form POST over HTTPS trusting `ca`; answers the status, the Location and the first cookie pair. */
export function postForm(
  url: string,
  form: Record<string, string>,
  ca: string,
  cookie?: string,
): Promise<{ status: number; location: string | undefined; cookie: string | undefined }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The result is a failure whose reason matches `pattern` and does not contain `token`. */
export function expectFailure(result: ProbeResult, pattern: RegExp, token: string): string {
  expect(result).toEqual({ ok: false, reason: expect.stringMatching(pattern), ms: expect.any(Number) });
  const { reason } = result as { reason: string };
  expect(reason).not.toContain(token);
  return reason;
}
