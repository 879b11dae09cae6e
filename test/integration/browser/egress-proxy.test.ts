import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import { connect, type AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { startEgressProxy, type EgressBlock, type EgressProxy } from '../../../src/browser/egress-proxy.js';
import { createForbiddenOrigins } from '../../../src/browser/forbidden-origins.js';
import { createHostAllowlist, NOTHING_ALLOWED } from '../../../src/browser/host-allowlist.js';
import { silentLogger } from '../../support/logger.js';

/** One raw request through the proxy: absolute-form GET, answered with status, headers and body. */
function viaProxy(proxyPort: number, url: string, auth?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: proxyPort, path: url, headers: auth ? { 'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}` } : {} }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy; resolves with the proxy's status line. */
function tunnel(proxyPort: number, target: string, auth: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1', () => {
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${Buffer.from(auth).toString('base64')}\r\n\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      resolve(chunk.toString().split('\r\n')[0]!);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

describe('egress proxy', () => {
  let proxy: EgressProxy;
  let target: Server;
  let targetPort: number;
  let proxyPort: number;
  const hits: string[] = [];

  beforeAll(async () => {
    proxy = await startEgressProxy(silentLogger());
    target = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end(`hello ${req.headers['proxy-authorization'] === undefined ? 'no-proxy-auth' : 'LEAKED'}`);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
    const grant = proxy.grant(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), () => undefined);
    proxyPort = Number(new URL(grant.proxy.server).port);
    grant.revoke();
  });

  afterAll(async () => {
    await proxy.close();
    target.close();
  });

  it('challenges a request without credentials and refuses wrong ones', async () => {
    const grant = proxy.grant(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), () => undefined);
    try {
      const anonymous = await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/x`);
      expect([anonymous.status, anonymous.headers['proxy-authenticate']]).toEqual([407, 'Basic realm="qa"']);
      const wrong = await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/x`, `${grant.proxy.username}:not-the-password`);
      expect(wrong.status).toBe(407);
      expect(hits).toEqual([]);
    } finally {
      grant.revoke();
    }
  });

  it('forwards to an allowed host without passing on the proxy credentials', async () => {
    const grant = proxy.grant(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), () => undefined);
    try {
      const answer = await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/ok?q=1`, `${grant.proxy.username}:${grant.proxy.password}`);
      expect([answer.status, answer.body]).toEqual([200, 'hello no-proxy-auth']);
      expect(hits).toContain('/ok?q=1');
    } finally {
      grant.revoke();
    }
  });

  it("refuses other hosts, by plain request and by tunnel, and tells the grant's owner", async () => {
    const blocked: EgressBlock[] = [];
    const grant = proxy.grant(createHostAllowlist('http://shop.example/', []), (block) => blocked.push(block));
    const auth = `${grant.proxy.username}:${grant.proxy.password}`;
    try {
      const plain = await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/secret`, auth);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(proxyPort, `127.0.0.1:${targetPort}`, auth)).toBe('HTTP/1.1 403 Forbidden');
      expect(hits).not.toContain('/secret');
      expect(blocked).toEqual([
        { target: `http://127.0.0.1:${targetPort}/secret`, host: `127.0.0.1:${targetPort}`, method: 'GET' },
        { target: `127.0.0.1:${targetPort}`, host: `127.0.0.1:${targetPort}`, method: 'CONNECT' },
      ]);
    } finally {
      grant.revoke();
    }
  });

  it('tunnels to an allowed host, and stops admitting a revoked grant', async () => {
    const grant = proxy.grant(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), () => undefined);
    const auth = `${grant.proxy.username}:${grant.proxy.password}`;
    expect(await tunnel(proxyPort, `127.0.0.1:${targetPort}`, auth)).toBe('HTTP/1.1 200 Connection Established');
    grant.revoke();
    expect(await tunnel(proxyPort, `127.0.0.1:${targetPort}`, auth)).toBe('HTTP/1.1 407 Proxy Authentication Required');
  });

  it('moves a grant to another allowlist and observer when it is assigned one (a context made ahead of its run)', async () => {
    const before: EgressBlock[] = [];
    const after: EgressBlock[] = [];
    const grant = proxy.grant(NOTHING_ALLOWED, (block) => before.push(block));
    try {
      const auth = `${grant.proxy.username}:${grant.proxy.password}`;
      expect((await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/early`, auth)).status).toBe(403);
      grant.assign(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), (block) => after.push(block));
      expect((await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/assigned`, auth)).status).toBe(200);
      expect((await viaProxy(proxyPort, 'http://localhost:9/other', auth)).status).toBe(403);
      expect([before.map((block) => block.target), after.map((block) => block.target)]).toEqual([
        [`http://127.0.0.1:${targetPort}/early`],
        ['http://localhost:9/other'],
      ]);
      expect(hits).toContain('/assigned');
      expect(hits).not.toContain('/early');
    } finally {
      grant.revoke();
    }
  });

  it('listens on the address it is given, and gives browsers that address', async () => {
    // Any 127.x.y.z is this machine on Linux: an address other than the default, without a network.
    const elsewhere = await startEgressProxy(silentLogger(), '127.0.0.2');
    try {
      const grant = elsewhere.grant(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), () => undefined);
      const server = new URL(grant.proxy.server);
      expect(server.hostname).toBe('127.0.0.2');
      const answer = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.2', port: Number(server.port), path: `http://127.0.0.1:${targetPort}/via-other-address`, headers: { 'proxy-authorization': `Basic ${Buffer.from(`${grant.proxy.username}:${grant.proxy.password}`).toString('base64')}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(answer).toBe(200);
      expect(hits).toContain('/via-other-address');
    } finally {
      await elsewhere.close();
    }
  });

  it('answers an allowed host that is down with its own 502, naming the reason', async () => {
    const grant = proxy.grant(createHostAllowlist('http://127.0.0.1:9/', []), () => undefined);
    try {
      const down = await viaProxy(proxyPort, 'http://127.0.0.1:9/', `${grant.proxy.username}:${grant.proxy.password}`);
      expect([down.status, down.headers['x-qa-egress'], down.headers['x-qa-egress-reason']]).toEqual([502, 'unreachable', 'ECONNREFUSED']);
    } finally {
      grant.revoke();
    }
  });

  it('allows by origin: another port of an allowed host is refused, plain and tunnelled, unless listed with its port', async () => {
    const other = await startCounting();
    const blocked: EgressBlock[] = [];
    const grant = proxy.grant(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, ['127.0.0.1']), (block) => blocked.push(block));
    const auth = `${grant.proxy.username}:${grant.proxy.password}`;
    try {
      expect((await viaProxy(proxyPort, `http://127.0.0.1:${targetPort}/same-origin`, auth)).status).toBe(200);
      const plain = await viaProxy(proxyPort, `http://127.0.0.1:${other.port}/other-port`, auth);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(proxyPort, `127.0.0.1:${other.port}`, auth)).toBe('HTTP/1.1 403 Forbidden');
      expect(other.hits).toEqual([]);
      expect(blocked.map((block) => block.host)).toEqual([`127.0.0.1:${other.port}`, `127.0.0.1:${other.port}`]);

      grant.assign(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, [`127.0.0.1:${other.port}`]), () => undefined);
      expect((await viaProxy(proxyPort, `http://127.0.0.1:${other.port}/listed`, auth)).status).toBe(200);
      expect(await tunnel(proxyPort, `127.0.0.1:${other.port}`, auth)).toBe('HTTP/1.1 200 Connection Established');
      expect(other.hits).toEqual(['/listed']);
    } finally {
      grant.revoke();
      other.server.close();
    }
  });

  it("never reaches a forbidden origin (the service's own address), in any spelling, whatever the grant allows", async () => {
    const service = await startCounting();
    // What the composition root passes: the service's HOST:PORT.
    const guarded = await startEgressProxy(silentLogger(), '127.0.0.1', createForbiddenOrigins([`127.0.0.1:${service.port}`]));
    const blocked: EgressBlock[] = [];
    const spellings = ['127.0.0.1', 'localhost', '127.0.0.2', '[::ffff:127.0.0.1]', hostname()];
    const grant = guarded.grant(createHostAllowlist(`http://127.0.0.1:${service.port}/`, spellings.map((host) => `${host}:${service.port}`)), (block) => blocked.push(block));
    const port = Number(new URL(grant.proxy.server).port);
    const auth = `${grant.proxy.username}:${grant.proxy.password}`;
    try {
      for (const host of spellings) {
        const plain = await viaProxy(port, `http://${host}:${service.port}/api/jobs`, auth);
        expect([host, plain.status, plain.headers['x-qa-egress']]).toEqual([host, 403, 'blocked']);
        expect([host, await tunnel(port, `${host}:${service.port}`, auth)]).toEqual([host, 'HTTP/1.1 403 Forbidden']);
      }
      expect(service.hits).toEqual([]);
      expect(blocked).toHaveLength(spellings.length * 2);
      // Other origins of the same grant still work: only the service is carved out.
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/beside-the-service`, auth)).status).toBe(403);
      grant.assign(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []), () => undefined);
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/beside-the-service`, auth)).status).toBe(200);
    } finally {
      grant.revoke();
      await guarded.close();
      service.server.close();
    }
  });

  it('refuses a name that resolves to a forbidden address', async () => {
    // This machine's own name resolves to one of its addresses (loopback on most machines, an interface otherwise).
    const name = hostname().toLowerCase();
    const [resolved] = await lookup(name, { all: true });
    const guarded = await startEgressProxy(silentLogger(), '127.0.0.1', createForbiddenOrigins([`${resolved!.family === 6 ? `[${resolved!.address}]` : resolved!.address}:${targetPort}`], []));
    const grant = guarded.grant(createHostAllowlist(`http://${name}:${targetPort}/`, []), () => undefined);
    const port = Number(new URL(grant.proxy.server).port);
    const auth = `${grant.proxy.username}:${grant.proxy.password}`;
    try {
      const plain = await viaProxy(port, `http://${name}:${targetPort}/by-name`, auth);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(port, `${name}:${targetPort}`, auth)).toBe('HTTP/1.1 403 Forbidden');
      expect(hits).not.toContain('/by-name');
    } finally {
      grant.revoke();
      await guarded.close();
    }
  });
});

/** Another server on loopback (another service of the same machine): it counts what reaches it. */
async function startCounting(): Promise<{ port: number; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits, server };
}
