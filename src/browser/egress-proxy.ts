import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { connect, type LookupFunction, type Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { createForbiddenOrigins, NOTHING_FORBIDDEN, type ForbiddenOrigins } from './forbidden-origins.js';
import { endpointText, normalizeHost, type HostAllowlist } from './host-allowlist.js';

/**
 * A request the proxy refused: `target` is the URL for plain HTTP, `host:port` for a tunnel (HTTPS, WebSocket);
 * `host` is where it went, always with its port (`localhost:4159`, `shop.example:443`), as an allowlist entry
 * would name it.
 */
export interface EgressBlock {
  target: string;
  host: string;
  method: string;
}

/** The code of the error a guarded lookup fails with: the name resolved to a forbidden address. */
const FORBIDDEN_ADDRESS = 'EQAFORBIDDEN';

/**
 * Resolves as the system does, but fails when any address of the name is forbidden on `port`: a name of the
 * run's (or one that rebinds to loopback between checks) must not lead to the service's own socket.
 */
function guardedLookup(port: number, refused: (host: string, port: number) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.some(({ address }) => refused(address, port))) {
        return callback(Object.assign(new Error(`${hostname} resolves to an address no run may reach`), { code: FORBIDDEN_ADDRESS }), '', 0);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface EgressGrant {
  /** Proxy settings for one browser context. */
  readonly proxy: { server: string; username: string; password: string; bypass: string };
  /** Gives the grant another allowlist and observer (a context made before its run was known gets its run's). */
  assign(allowlist: HostAllowlist, onBlocked: (block: EgressBlock) => void): void;
  revoke(): void;
}

export interface EgressProxy {
  grant(allowlist: HostAllowlist, onBlocked: (block: EgressBlock) => void): EgressGrant;
  close(): Promise<void>;
}

/**
 * Marks the proxy's own answers, so a page observer does not take them for the site's: `blocked` (not in the
 * allowlist) or `unreachable` (allowed, but the connection failed; the reason is in EGRESS_REASON_HEADER).
 */
export const EGRESS_HEADER = 'x-qa-egress';
export const EGRESS_REASON_HEADER = 'x-qa-egress-reason';

/** Why the proxy could not connect to the site, when `headers` are those of its `unreachable` answer; else undefined. */
export function unreachableReason(headers: Record<string, string>): string | undefined {
  return headers[EGRESS_HEADER] === 'unreachable' ? (headers[EGRESS_REASON_HEADER] ?? 'connection failed') : undefined;
}

const HOP_BY_HOP = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

/**
 * The network boundary of browser runs: every context sends all its traffic (loopback included) through this
 * proxy with credentials of its own, and the proxy forwards only to the hosts that context may reach. Playwright's
 * request routing alone cannot be the boundary: it does not see the requests a redirect leads to.
 *
 * It listens on `host` (default loopback), which is also the address the browser is given: a browser on another
 * machine (BROWSER_WS_ENDPOINT) needs an address of this machine it can reach. Targets are reached from this
 * machine, so the allowlist is enforced here wherever the browser runs.
 *
 * Requests are allowed by host and port (a plain request's URL, a tunnel's `host:port`). `forbidden` endpoints
 * (the service's own address) and the proxy's own are refused whatever a grant allows, also when a name resolves
 * to them.
 */
export async function startEgressProxy(logger: Logger, host = '127.0.0.1', forbidden: ForbiddenOrigins = NOTHING_FORBIDDEN): Promise<EgressProxy> {
  let own: ForbiddenOrigins = NOTHING_FORBIDDEN;
  const refused = (target: string, port: number) => forbidden.forbids(target, port) || own.forbids(target, port);
  const grants = new Map<string, { password: Buffer; allowlist: HostAllowlist; onBlocked: (block: EgressBlock) => void }>();
  const sockets = new Set<Socket>();

  function grantOf(header: string | undefined) {
    if (!header?.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString();
    const colon = decoded.indexOf(':');
    const grant = grants.get(decoded.slice(0, colon));
    const password = Buffer.from(decoded.slice(colon + 1));
    if (!grant || colon < 0 || password.length !== grant.password.length || !timingSafeEqual(password, grant.password)) return undefined;
    return grant;
  }

  /** Chromium sends credentials only after a challenge; a request without any gets one. */
  function challenge(write: (head: string) => void) {
    write('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="qa"\r\nContent-Length: 0\r\n\r\n');
  }

  function forward(req: IncomingMessage, res: ServerResponse) {
    const grant = grantOf(req.headers['proxy-authorization']);
    if (!grant) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="qa"', 'content-length': 0 }).end();
      return;
    }
    if (!URL.canParse(req.url ?? '')) {
      res.writeHead(400, { 'content-length': 0 }).end();
      return;
    }
    const target = new URL(req.url!);
    const host = normalizeHost(target.hostname);
    const port = target.port === '' ? 80 : Number(target.port);
    const block = () => {
      grant.onBlocked({ target: target.href, host: endpointText({ host: host || target.hostname, port }), method: req.method ?? 'GET' });
      res.writeHead(403, { [EGRESS_HEADER]: 'blocked', 'content-type': 'text/plain' }).end('Blocked by the run\'s network allowlist');
    };
    if (target.protocol !== 'http:' || host === '' || refused(host, port) || !grant.allowlist.allows(host, port)) {
      block();
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = httpRequest(
      { host, port, path: `${target.pathname}${target.search}`, method: req.method, headers, lookup: guardedLookup(port, refused) },
      (response) => {
        const outHeaders = { ...response.headers };
        for (const name of HOP_BY_HOP) delete outHeaders[name];
        res.writeHead(response.statusCode ?? 502, outHeaders);
        response.pipe(res);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error.code === FORBIDDEN_ADDRESS) {
        block();
        return;
      }
      res.writeHead(502, { [EGRESS_HEADER]: 'unreachable', [EGRESS_REASON_HEADER]: error.code ?? 'connection failed', 'content-length': 0 }).end();
    });
    req.pipe(upstream);
  }

  function tunnel(req: IncomingMessage, client: Socket, head: Buffer) {
    const grant = grantOf(req.headers['proxy-authorization']);
    if (!grant) {
      challenge((text) => client.end(text));
      return;
    }
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
    const host = match ? normalizeHost(match[1]!) : '';
    const port = match ? Number(match[2]) : 0;
    const block = () => {
      grant.onBlocked({ target: req.url ?? '', host: host === '' ? (req.url ?? '') : endpointText({ host, port }), method: 'CONNECT' });
      client.end(`HTTP/1.1 403 Forbidden\r\n${EGRESS_HEADER}: blocked\r\nContent-Length: 0\r\n\r\n`);
    };
    if (host === '' || refused(host, port) || !grant.allowlist.allows(host, port)) {
      block();
      return;
    }
    const upstream = connect({ port, host, lookup: guardedLookup(port, refused) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const destroyBoth = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!client.writable) destroyBoth();
      else if (error.code === FORBIDDEN_ADDRESS) block();
      else client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    client.on('error', destroyBoth);
    client.on('close', () => upstream.destroy());
  }

  const server = createServer(forward);
  server.on('connect', tunnel);
  // Plain ws:// through a proxy also arrives as CONNECT in Chromium; an absolute-form upgrade is refused.
  server.on('upgrade', (_req, socket: Socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (error, socket) => {
    logger.debug({ err: error }, 'egress proxy client error');
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as { port: number };
  // Through itself a run would reach nothing it may not reach directly, but it is no target either.
  own = createForbiddenOrigins([endpointText({ host, port })]);
  const proxyServer = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    grant(allowlist, onBlocked) {
      const username = `run-${randomBytes(9).toString('hex')}`;
      const password = randomBytes(18).toString('hex');
      const entry = { password: Buffer.from(password), allowlist, onBlocked };
      grants.set(username, entry);
      return {
        // `<-loopback>` removes Chromium's implicit bypass of localhost: loopback traffic is checked too.
        proxy: { server: proxyServer, username, password, bypass: '<-loopback>' },
        assign(next, nextOnBlocked) {
          entry.allowlist = next;
          entry.onBlocked = nextOnBlocked;
        },
        revoke: () => void grants.delete(username),
      };
    },
    async close() {
      grants.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
