/**
 * The evidence-probe client against real HTTPS on loopback: the demo shop's `/probe/orders` (test/fixtures/demo-app)
 * for the happy path, small servers of its own for what a request looks like and where it goes. Certificates come
 * from a test CA made for this run; 127.0.0.1/32 is allowed as PROBE_ALLOW_CIDRS would allow it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProbeClient, type ProbeClient, type ResolvedAddress } from '../../../src/probes/probe-client.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { expectFailure, json, postForm, startProbeServer, type ProbeServer } from './probe-servers.js';

const TOKEN = 'probe-token-7f3c9a1e5b';
const EMAIL = DEFAULT_ACCOUNT.email;

/** Signs in, buys a Desk Lamp with SAVE10 and checks out, over HTTPS; answers the order's page path. */
async function placeOrder(app: DemoApp, ca: string): Promise<string | undefined> {
  const login = await postForm(`${app.url}/login`, { email: DEFAULT_ACCOUNT.email, password: DEFAULT_ACCOUNT.password }, ca);
  expect(login.status).toBe(303);
  await postForm(`${app.url}/cart/items`, { productId: 'desk-lamp' }, ca, login.cookie);
  await postForm(`${app.url}/cart/coupon`, { coupon: 'SAVE10' }, ca, login.cookie);
  return (await postForm(`${app.url}/checkout`, {}, ca, login.cookie)).location;
}

describe('probe client: answers', () => {
  let certificates: TestCertificates;
  let shop: DemoApp;
  let client: ProbeClient;

  beforeAll(async () => {
    certificates = await createTestCertificates(['127.0.0.1', 'localhost', 'probe.test']);
    shop = await startDemoApp({ tls: { key: certificates.key, cert: certificates.cert }, probeToken: TOKEN });
    client = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca });
  });

  afterAll(async () => {
    await shop.close();
    await certificates.remove();
  });

  it("reads the demo shop's verdict before and after an order, through DNS for localhost", async () => {
    const url = `https://localhost:${shop.port}/probe/orders?email=${encodeURIComponent(EMAIL)}`;
    expect(await client.call({ url, token: TOKEN, allowedHosts: ['localhost'] })).toEqual({
      ok: true,
      passed: false,
      evidence: expect.stringContaining(`No order for ${EMAIL}`),
      ms: expect.any(Number),
    });

    expect(await placeOrder(shop, certificates.ca)).toBe('/orders/ORD-1001');

    expect(await client.call({ url, token: TOKEN, allowedHosts: ['LOCALHOST'] })).toEqual({
      ok: true,
      passed: true,
      evidence: expect.stringMatching(/^Order ORD-1001 for demo@example\.test: 1 item, total \$90 with coupon SAVE10/),
      ms: expect.any(Number),
    });
  });

  it('calls an IP-literal host the same way', async () => {
    const result = await client.call({ url: `${shop.url}/probe/orders?email=nobody%40example.test`, token: TOKEN, allowedHosts: ['127.0.0.1'] });
    expect(result).toMatchObject({ ok: true, passed: false });
  });

  it("reports the shop's 401 for a wrong token, telling the operator to check it, without the token", async () => {
    const wrong = 'wrong-token-0b1e2d';
    const reason = expectFailure(
      await client.call({ url: `${shop.url}/probe/orders?email=a%40b.test`, token: wrong, allowedHosts: ['127.0.0.1'] }),
      /^the probe answered HTTP 401; check the probe token$/,
      wrong,
    );
    expect(reason).not.toContain(TOKEN);
  });

  describe('with a recording server', () => {
    let server: ProbeServer;

    beforeAll(async () => {
      server = await startProbeServer(certificates, (req, res) =>
        json(res, 200, { passed: true, evidence: 'Row 42 exists', rowId: 42, internal: { sql: 'select 1' } }, { 'set-cookie': 'session=abc; Path=/' }),
      );
    });

    afterAll(() => server.close());

    it('sends one GET with the bearer token and Accept: application/json, never a cookie, and returns only passed and evidence', async () => {
      const url = `${server.url}/orders/exists?email=a%40b.test`;
      for (let i = 0; i < 2; i += 1) {
        expect(await client.call({ url, token: TOKEN, allowedHosts: ['127.0.0.1'] })).toEqual({ ok: true, passed: true, evidence: 'Row 42 exists', ms: expect.any(Number) });
      }
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        expect(request.method).toBe('GET');
        expect(request.url).toBe('/orders/exists?email=a%40b.test');
        expect(request.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, accept: 'application/json', host: `127.0.0.1:${server.port}` });
        expect(request.headers.cookie).toBeUndefined();
      }
    });

    it('resolves a name once and connects to the checked address, with SNI and the certificate on the name', async () => {
      const lookups: string[] = [];
      // A rebinding resolver: the first answer is the loopback test server, any later one a private address.
      const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> => {
        lookups.push(hostname);
        return lookups.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
      };
      const pinned = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca, resolveHost });
      const before = server.requests.length;
      const result = await pinned.call({ url: `https://probe.test:${server.port}/check`, token: TOKEN, allowedHosts: ['probe.test'] });
      expect(result).toMatchObject({ ok: true, passed: true });
      expect(lookups).toEqual(['probe.test']);
      expect(server.requests.slice(before).map((request) => request.headers.host)).toEqual([`probe.test:${server.port}`]);
    });

    it('skips addresses the policy refuses and uses one it allows', async () => {
      const resolveHost = async (): Promise<ResolvedAddress[]> => [
        { address: '10.0.0.1', family: 4 },
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ];
      const mixed = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca, resolveHost });
      expect(await mixed.call({ url: `https://probe.test:${server.port}/check`, token: TOKEN, allowedHosts: ['probe.test'] })).toMatchObject({ ok: true });
    });

    it('stops when the caller cancels', async () => {
      const controller = new AbortController();
      controller.abort();
      const connectionsBefore = server.connections();
      expectFailure(
        await client.call({ url: `${server.url}/check`, token: TOKEN, allowedHosts: ['127.0.0.1'], signal: controller.signal }),
        /^the probe call was cancelled before it finished$/,
        TOKEN,
      );
      expect(server.connections()).toBe(connectionsBefore);
    });
  });
});
