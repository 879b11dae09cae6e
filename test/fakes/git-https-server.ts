/**
 * A local code host for git over HTTPS (GitHub's wire format for clones): Node's https server on 127.0.0.1 running
 * `git http-backend` as a CGI (smart HTTP, protocol v2), with a certificate from a test CA. As GitHub does:
 * - a private repository needs `Authorization: Basic base64(x-access-token:<token>)` with a live token, else 401 with
 *   `WWW-Authenticate: Basic realm="GitHub"`; a public one needs nothing;
 * - any commit can be fetched by its SHA (uploadpack.allowAnySHA1InWant);
 * - no push (403), and a path with no repository is 404.
 * It can also answer like things that are not git at all: `/html/…` is an HTML page with 200, `/stall/…` accepts the
 * request and never answers. Repositories live under `projectRoot` as bare folders named like their URL path
 * (`acme/shop.git`). Docs: git-http-backend(1), https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/authenticating-as-a-github-app-installation
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface FakeGitHostOptions {
  key: string;
  cert: string;
  projectRoot: string;
  /** Repository paths (`acme/private.git`) that need a token. */
  privateRepositories?: readonly string[];
}

export interface GitHostRequest {
  method: string;
  path: string;
  /** What the Authorization header held. */
  auth: 'none' | 'valid' | 'invalid';
  status: number;
}

export interface FakeGitHost {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** Makes a token live (as an installation token the code host issued). */
  issueToken(token: string): void;
  requests: GitHostRequest[];
  /** Requests to `/stall/…` whose connection is still open. */
  openStalls(): number;
  close(): Promise<void>;
}

const SERVER_GIT_CONFIG: [string, string][] = [
  ['uploadpack.allowAnySHA1InWant', 'true'],
  ['uploadpack.allowReachableSHA1InWant', 'true'],
  ['uploadpack.allowFilter', 'true'],
  ['http.receivepack', 'false'],
];

function tokenOf(header: string | undefined): string | null {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!basic?.[1]) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : decoded.slice(colon + 1);
}

function runBackend(projectRoot: string, req: IncomingMessage, res: ServerResponse, pathInfo: string, query: string, user: string | null): void {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: projectRoot,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PROJECT_ROOT: projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: pathInfo,
    QUERY_STRING: query,
    CONTENT_TYPE: header('content-type'),
    HTTP_CONTENT_ENCODING: header('content-encoding'),
    GIT_PROTOCOL: header('git-protocol'),
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: header('content-length') } : {}),
    ...(user ? { REMOTE_USER: user } : {}),
    GIT_CONFIG_COUNT: String(SERVER_GIT_CONFIG.length),
    ...Object.fromEntries(SERVER_GIT_CONFIG.flatMap(([key, value], index) => [[`GIT_CONFIG_KEY_${index}`, key], [`GIT_CONFIG_VALUE_${index}`, value]])),
  };
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (started) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    started = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
      else res.setHeader(name, value);
    }
    res.statusCode = status;
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => {
    if (!started) res.statusCode = 500;
    res.end();
  });
}

export async function startFakeGitHost(options: FakeGitHostOptions): Promise<FakeGitHost> {
  const tokens = new Set<string>();
  const privates = new Set(options.privateRepositories ?? []);
  const requests: GitHostRequest[] = [];
  const stalls = new Set<Socket>();
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://fake.invalid');
    const token = tokenOf(req.headers.authorization);
    const auth: GitHostRequest['auth'] = req.headers.authorization === undefined ? 'none' : token !== null && tokens.has(token) ? 'valid' : 'invalid';
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      requests.push({ method: req.method ?? 'GET', path: url.pathname, auth, status });
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (url.pathname.startsWith('/stall/')) {
      requests.push({ method: req.method ?? 'GET', path: url.pathname, auth, status: 0 });
      stalls.add(req.socket);
      req.socket.once('close', () => stalls.delete(req.socket));
      return;
    }
    if (url.pathname.startsWith('/html/')) return answer(200, '<!doctype html><html><body><h1>Welcome to our shop</h1></body></html>');
    const found = /^\/(.+?\.git)(\/.*)$/.exec(url.pathname);
    const repository = found?.[1];
    if (!found || !repository || repository.split('/').includes('..') || !existsSync(join(options.projectRoot, repository))) {
      return answer(404, '<!doctype html><h1>Not Found</h1>');
    }
    if (privates.has(repository) && auth !== 'valid') {
      return answer(401, 'Invalid username or password.', { 'www-authenticate': 'Basic realm="GitHub"' });
    }
    if (url.searchParams.get('service') === 'git-receive-pack' || url.pathname.endsWith('/git-receive-pack')) {
      return answer(403, 'Push is not allowed here');
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, auth, status: 200 });
    runBackend(options.projectRoot, req, res, url.pathname, url.search.replace(/^\?/, ''), auth === 'valid' ? 'x-access-token' : null);
  };

  const server: Server = createServer({ key: options.key, cert: options.cert }, handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A client that refuses our certificate ends the handshake: not an error of the server.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    issueToken: (token) => void tokens.add(token),
    requests,
    openStalls: () => stalls.size,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
