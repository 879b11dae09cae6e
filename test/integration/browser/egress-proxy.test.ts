import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import { connect, type AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { credentialsNeeded, startEgressProxy, type EgressBlock, type EgressGrant, type EgressProxy } from '../../../src/browser/egress-proxy.js';
import { createForbiddenOrigins, NOTHING_FORBIDDEN } from '../../../src/browser/forbidden-origins.js';
import { createHostAllowlist, NOTHING_ALLOWED, type HostAllowlist } from '../../../src/browser/host-allowlist.js';
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
function tunnel(proxyPort: number, target: string, auth?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1', () => {
      const credentials = auth ? `Proxy-Authorization: Basic ${Buffer.from(auth).toString('base64')}\r\n` : '';
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${credentials}\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      resolve(chunk.toString().split('\r\n')[0]!);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

/** A grant with the port it listens on, as a browser context gets it. */
async function openGrant(proxy: EgressProxy, allowlist: HostAllowlist, onBlocked: (block: EgressBlock) => void = () => undefined): Promise<{ grant: EgressGrant; port: number }> {
  const grant = await proxy.grant(allowlist, onBlocked);
  return { grant, port: Number(new URL(grant.proxy.server).port) };
}

/** An open tunnel through the proxy, and a promise of its end. */
function openTunnel(proxyPort: number, target: string): Promise<{ closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    socket.once('data', (chunk: Buffer) => {
      if (!chunk.toString().startsWith('HTTP/1.1 200')) reject(new Error(chunk.toString()));
      else resolve({ closed: new Promise((ended) => socket.once('close', () => ended())) });
    });
    socket.on('error', () => undefined);
  });
}

describe('egress proxy', () => {
  let proxy: EgressProxy;
  let target: Server;
  let targetPort: number;
  const hits: string[] = [];
  const allowsTarget = () => createHostAllowlist(`http://127.0.0.1:${targetPort}/`, []);

  beforeAll(async () => {
    proxy = await startEgressProxy(silentLogger());
    target = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end(`hello ${req.headers['proxy-authorization'] === undefined ? 'no-proxy-auth' : 'LEAKED'}`);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await proxy.close();
    target.close();
  });

  it('gives each grant a loopback address of its own and no credentials: Playwright would pause every request to answer a challenge', async () => {
    const [one, two] = [await openGrant(proxy, allowsTarget()), await openGrant(proxy, allowsTarget())];
    try {
      expect(one.port).not.toBe(two.port);
      expect(one.grant.proxy).toEqual({ server: `http://127.0.0.1:${one.port}`, bypass: '<-loopback>' });
      const answer = await viaProxy(one.port, `http://127.0.0.1:${targetPort}/ok?q=1`);
      expect([answer.status, answer.body]).toEqual([200, 'hello no-proxy-auth']);
      expect(hits).toContain('/ok?q=1');
    } finally {
      one.grant.revoke();
      two.grant.revoke();
    }
  });

  it("tells grants apart by the port a request arrives on: one grant's allowlist never lets another's traffic through", async () => {
    const blockedOpen: EgressBlock[] = [];
    const blockedShut: EgressBlock[] = [];
    const open = await openGrant(proxy, allowsTarget(), (block) => blockedOpen.push(block));
    const shut = await openGrant(proxy, NOTHING_ALLOWED, (block) => blockedShut.push(block));
    try {
      expect((await viaProxy(shut.port, `http://127.0.0.1:${targetPort}/through-the-shut-grant`)).status).toBe(403);
      expect(await tunnel(shut.port, `127.0.0.1:${targetPort}`)).toBe('HTTP/1.1 403 Forbidden');
      expect((await viaProxy(open.port, `http://127.0.0.1:${targetPort}/through-the-open-grant`)).status).toBe(200);
      expect(hits).not.toContain('/through-the-shut-grant');
      expect([blockedOpen.length, blockedShut.map((block) => block.method)]).toEqual([0, ['GET', 'CONNECT']]);
    } finally {
      open.grant.revoke();
      shut.grant.revoke();
    }
  });

  it("refuses every grant's own port as a target, also one its allowlist names (a page must not borrow another run's grant)", async () => {
    const other = await openGrant(proxy, allowsTarget());
    const { grant, port } = await openGrant(proxy, createHostAllowlist(`http://127.0.0.1:${other.port}/`, [`localhost:${other.port}`]));
    try {
      const plain = await viaProxy(port, `http://127.0.0.1:${other.port}/http://127.0.0.1:${targetPort}/borrowed`);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(port, `localhost:${other.port}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(await tunnel(port, `127.0.0.1:${port}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(hits).not.toContain('/borrowed');
    } finally {
      grant.revoke();
      other.grant.revoke();
    }
  });

  it("refuses other hosts, by plain request and by tunnel, and tells the grant's owner", async () => {
    const blocked: EgressBlock[] = [];
    const { grant, port } = await openGrant(proxy, createHostAllowlist('http://shop.example/', []), (block) => blocked.push(block));
    try {
      const plain = await viaProxy(port, `http://127.0.0.1:${targetPort}/secret`);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(port, `127.0.0.1:${targetPort}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(hits).not.toContain('/secret');
      expect(blocked).toEqual([
        { target: `http://127.0.0.1:${targetPort}/secret`, host: `127.0.0.1:${targetPort}`, method: 'GET' },
        { target: `127.0.0.1:${targetPort}`, host: `127.0.0.1:${targetPort}`, method: 'CONNECT' },
      ]);
    } finally {
      grant.revoke();
    }
  });

  it('tunnels to an allowed host; a revoked grant stops listening and its open tunnels close', async () => {
    const { grant, port } = await openGrant(proxy, allowsTarget());
    expect(await tunnel(port, `127.0.0.1:${targetPort}`)).toBe('HTTP/1.1 200 Connection Established');
    const open = await openTunnel(port, `127.0.0.1:${targetPort}`);
    grant.revoke();
    await open.closed;
    await expect(tunnel(port, `127.0.0.1:${targetPort}`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    grant.revoke(); // twice is harmless
  });

  it('moves a grant to another allowlist and observer when it is assigned one (a context made ahead of its run)', async () => {
    const before: EgressBlock[] = [];
    const after: EgressBlock[] = [];
    const { grant, port } = await openGrant(proxy, NOTHING_ALLOWED, (block) => before.push(block));
    try {
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/early`)).status).toBe(403);
      grant.assign(allowsTarget(), (block) => after.push(block));
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/assigned`)).status).toBe(200);
      expect((await viaProxy(port, 'http://localhost:9/other')).status).toBe(403);
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

  it('needs credentials only where other machines could reach a grant: beyond loopback', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', 'localhost'].map(credentialsNeeded)).toEqual([false, false, false, false]);
    expect(['10.0.0.5', '192.168.1.20', 'fd00::1', 'worker-1.internal'].map(credentialsNeeded)).toEqual([true, true, true, true]);
  });

  it("with credentials, challenges a request without them and refuses wrong ones, another grant's included, and never passes them on", async () => {
    const guarded = await startEgressProxy(silentLogger(), '127.0.0.1', NOTHING_FORBIDDEN, { credentials: true });
    try {
      const { grant, port } = await openGrant(guarded, allowsTarget());
      const other = await openGrant(guarded, allowsTarget());
      const { username, password } = grant.proxy;
      expect([typeof username, typeof password]).toEqual(['string', 'string']);
      const anonymous = await viaProxy(port, `http://127.0.0.1:${targetPort}/anonymous`);
      expect([anonymous.status, anonymous.headers['proxy-authenticate']]).toEqual([407, 'Basic realm="qa"']);
      expect(await tunnel(port, `127.0.0.1:${targetPort}`)).toBe('HTTP/1.1 407 Proxy Authentication Required');
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/wrong`, `${username}:not-the-password`)).status).toBe(407);
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/others`, `${other.grant.proxy.username}:${other.grant.proxy.password}`)).status).toBe(407);
      const answer = await viaProxy(port, `http://127.0.0.1:${targetPort}/with-credentials`, `${username}:${password}`);
      expect([answer.status, answer.body]).toEqual([200, 'hello no-proxy-auth']);
      expect(await tunnel(port, `127.0.0.1:${targetPort}`, `${username}:${password}`)).toBe('HTTP/1.1 200 Connection Established');
      expect(hits.filter((hit) => ['/anonymous', '/wrong', '/others'].includes(hit))).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('listens on the address it is given, and gives browsers that address', async () => {
    // Any 127.x.y.z is this machine on Linux: an address other than the default, without a network.
    const elsewhere = await startEgressProxy(silentLogger(), '127.0.0.2');
    try {
      const grant = await elsewhere.grant(allowsTarget(), () => undefined);
      const server = new URL(grant.proxy.server);
      expect(server.hostname).toBe('127.0.0.2');
      const answer = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.2', port: Number(server.port), path: `http://127.0.0.1:${targetPort}/via-other-address` }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
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
    const { grant, port } = await openGrant(proxy, createHostAllowlist('http://127.0.0.1:9/', []));
    try {
      const down = await viaProxy(port, 'http://127.0.0.1:9/');
      expect([down.status, down.headers['x-qa-egress'], down.headers['x-qa-egress-reason']]).toEqual([502, 'unreachable', 'ECONNREFUSED']);
    } finally {
      grant.revoke();
    }
  });

  it('allows by origin: another port of an allowed host is refused, plain and tunnelled, unless listed with its port', async () => {
    const other = await startCounting();
    const blocked: EgressBlock[] = [];
    const { grant, port } = await openGrant(proxy, createHostAllowlist(`http://127.0.0.1:${targetPort}/`, ['127.0.0.1']), (block) => blocked.push(block));
    try {
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/same-origin`)).status).toBe(200);
      const plain = await viaProxy(port, `http://127.0.0.1:${other.port}/other-port`);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(port, `127.0.0.1:${other.port}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(other.hits).toEqual([]);
      expect(blocked.map((block) => block.host)).toEqual([`127.0.0.1:${other.port}`, `127.0.0.1:${other.port}`]);

      grant.assign(createHostAllowlist(`http://127.0.0.1:${targetPort}/`, [`127.0.0.1:${other.port}`]), () => undefined);
      expect((await viaProxy(port, `http://127.0.0.1:${other.port}/listed`)).status).toBe(200);
      expect(await tunnel(port, `127.0.0.1:${other.port}`)).toBe('HTTP/1.1 200 Connection Established');
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
    const { grant, port } = await openGrant(guarded, createHostAllowlist(`http://127.0.0.1:${service.port}/`, spellings.map((host) => `${host}:${service.port}`)), (block) => blocked.push(block));
    try {
      for (const host of spellings) {
        const plain = await viaProxy(port, `http://${host}:${service.port}/api/jobs`);
        expect([host, plain.status, plain.headers['x-qa-egress']]).toEqual([host, 403, 'blocked']);
        expect([host, await tunnel(port, `${host}:${service.port}`)]).toEqual([host, 'HTTP/1.1 403 Forbidden']);
      }
      expect(service.hits).toEqual([]);
      expect(blocked).toHaveLength(spellings.length * 2);
      // Other origins of the same grant still work: only the service is carved out.
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/beside-the-service`)).status).toBe(403);
      grant.assign(allowsTarget(), () => undefined);
      expect((await viaProxy(port, `http://127.0.0.1:${targetPort}/beside-the-service`)).status).toBe(200);
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
    const { grant, port } = await openGrant(guarded, createHostAllowlist(`http://${name}:${targetPort}/`, []));
    try {
      const plain = await viaProxy(port, `http://${name}:${targetPort}/by-name`);
      expect([plain.status, plain.headers['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(await tunnel(port, `${name}:${targetPort}`)).toBe('HTTP/1.1 403 Forbidden');
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
