import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { connect, createServer as createNetServer, type AddressInfo, type LookupFunction, type Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { createForbiddenOrigins, isLoopbackAddress, NOTHING_FORBIDDEN, type ForbiddenOrigins } from './forbidden-origins.js';
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
  /**
   * Proxy settings for one browser context: an address of its own (the grant's port is how the proxy knows whose
   * request it is), with credentials of its own only when the proxy listens beyond loopback.
   */
  readonly proxy: { server: string; bypass: string; username?: string; password?: string };
  /** Gives the grant another allowlist and observer (a context made before its run was known gets its run's). */
  assign(allowlist: HostAllowlist, onBlocked: (block: EgressBlock) => void): void;
  /** Ends the grant: its address stops listening and its open connections close. */
  revoke(): void;
}

export interface EgressProxy {
  grant(allowlist: HostAllowlist, onBlocked: (block: EgressBlock) => void): Promise<EgressGrant>;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  /**
   * Whether a grant also needs its credentials (default: when `host` is not a loopback address, where other
   * machines can reach the grant's port). Credentials cost every request of the browser a round trip through
   * Playwright's request interception, which is how it answers a proxy's challenge.
   */
  credentials?: boolean;
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

/** Whether grants of a proxy listening on `host` need credentials: where other machines could reach their ports. */
export function credentialsNeeded(host: string): boolean {
  return !isLoopbackAddress(host);
}

/**
 * The network boundary of browser runs: every context sends all its traffic (loopback included) through a grant of
 * this proxy, an address of the context's own, and the proxy forwards only to the hosts that grant may reach.
 * Playwright's request routing alone cannot be the boundary: it does not see the requests a redirect leads to.
 *
 * A grant is told apart by the port its connections arrive on. Where the proxy listens beyond loopback (a browser
 * on another machine, `host`), other machines could reach that port too, so a grant then also has credentials of
 * its own, which Chromium sends after the proxy's challenge. On loopback they would add nothing: a process of this
 * machine reaches the same hosts without the proxy. And they cost every request a round trip: Playwright answers
 * a proxy's challenge by pausing each request of the context (DevTools' Fetch domain) until this process lets it go.
 *
 * It listens on `host` (default loopback), which is also the address the browser is given: a browser on another
 * machine (BROWSER_WS_ENDPOINT) needs an address of this machine it can reach. Targets are reached from this
 * machine, so the allowlist is enforced here wherever the browser runs.
 *
 * Requests are allowed by host and port (a plain request's URL, a tunnel's `host:port`). `forbidden` endpoints
 * (the service's own address) and the proxy's own (every grant's) are refused whatever a grant allows, also when a
 * name resolves to them.
 */
export async function startEgressProxy(
  logger: Logger,
  host = '127.0.0.1',
  forbidden: ForbiddenOrigins = NOTHING_FORBIDDEN,
  { credentials = credentialsNeeded(host) }: EgressProxyOptions = {},
): Promise<EgressProxy> {
  interface Entry {
    username: string;
    password: Buffer;
    allowlist: HostAllowlist;
    onBlocked: (block: EgressBlock) => void;
    revoked: boolean;
  }
  /** The proxy's own address on any port of a grant (`port` is only a placeholder; `forbids` is asked with it). */
  const ownHost = createForbiddenOrigins([endpointText({ host, port: 1 })]);
  const grantPorts = new Set<number>();
  const refused = (target: string, port: number) => forbidden.forbids(target, port) || (grantPorts.has(port) && ownHost.forbids(target, 1));
  const entryOf = new WeakMap<Socket, Entry>();
  /** How to end each grant still open: `revoke` of one, `close` of all. */
  const open = new Set<() => Promise<void>>();

  /** The grant a request came in on; undefined when it has ended, or its credentials were needed and not given. */
  function grantOf(req: IncomingMessage): Entry | undefined {
    const entry = entryOf.get(req.socket);
    if (!entry || entry.revoked) return undefined;
    if (!credentials) return entry;
    const header = req.headers['proxy-authorization'];
    if (!header?.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString();
    const colon = decoded.indexOf(':');
    const password = Buffer.from(decoded.slice(colon + 1));
    if (colon < 0 || decoded.slice(0, colon) !== entry.username || password.length !== entry.password.length || !timingSafeEqual(password, entry.password)) return undefined;
    return entry;
  }

  /** An ended grant is refused; where credentials are needed, a request without them gets Chromium's challenge. */
  function refusal(req: IncomingMessage): { status: 403 | 407; headers: Record<string, string | number> } {
    const entry = entryOf.get(req.socket);
    if (credentials && entry && !entry.revoked) return { status: 407, headers: { 'proxy-authenticate': 'Basic realm="qa"', 'content-length': 0 } };
    return { status: 403, headers: { 'content-length': 0 } };
  }

  function forward(req: IncomingMessage, res: ServerResponse) {
    const grant = grantOf(req);
    if (!grant) {
      const { status, headers } = refusal(req);
      res.writeHead(status, headers).end();
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
    const grant = grantOf(req);
    if (!grant) {
      const { status, headers } = refusal(req);
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      client.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n`);
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

  // Not listening itself: each grant's listener hands it the connections that arrive on the grant's port.
  const server = createServer(forward);
  server.on('connect', tunnel);
  // Plain ws:// through a proxy also arrives as CONNECT in Chromium; an absolute-form upgrade is refused.
  server.on('upgrade', (_req, socket: Socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
  server.on('clientError', (error, socket) => {
    logger.debug({ err: error }, 'egress proxy client error');
    socket.destroy();
  });
  const serverAddress = (port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    async grant(allowlist, onBlocked) {
      const password = randomBytes(18).toString('hex');
      const entry: Entry = { username: `run-${randomBytes(9).toString('hex')}`, password: Buffer.from(password), allowlist, onBlocked, revoked: false };
      const sockets = new Set<Socket>();
      const listener = createNetServer((socket) => {
        if (entry.revoked) {
          socket.destroy();
          return;
        }
        entryOf.set(socket, entry);
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        server.emit('connection', socket);
      });
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(0, host, resolve);
      });
      const { port } = listener.address() as AddressInfo;
      grantPorts.add(port);
      const end = async () => {
        if (entry.revoked) return;
        entry.revoked = true;
        open.delete(end);
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
        grantPorts.delete(port);
      };
      open.add(end);
      return {
        // `<-loopback>` removes Chromium's implicit bypass of localhost: loopback traffic is checked too.
        proxy: {
          server: serverAddress(port),
          bypass: '<-loopback>',
          ...(credentials ? { username: entry.username, password } : {}),
        },
        assign(next, nextOnBlocked) {
          entry.allowlist = next;
          entry.onBlocked = nextOnBlocked;
        },
        revoke: () => void end(),
      };
    },
    async close() {
      await Promise.all([...open].map((end) => end()));
    },
  };
}
