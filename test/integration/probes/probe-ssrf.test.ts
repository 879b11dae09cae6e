/**
 * Where a probe call may go: only to an allowed host, only over HTTPS without credentials in the URL, and only to
 * public addresses unless PROBE_ALLOW_CIDRS allows a range. Every refusal happens before a connection is opened:
 * the test server counts TCP connections, and a refused call leaves the count where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProbeClient, type ResolvedAddress } from '../../../src/probes/probe-client.js';
import { isAppError } from '../../../src/core/errors.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { expectFailure, json, startProbeServer, type ProbeServer } from './probe-servers.js';

const TOKEN = 'probe-token-ssrf-88d1c2';

/** A resolver that answers `addresses` for every name, as a hostile DNS zone could. */
const resolvingTo = (...addresses: string[]) => async (): Promise<ResolvedAddress[]> =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('probe client: where it may connect', () => {
  let certificates: TestCertificates;
  let server: ProbeServer;

  beforeAll(async () => {
    certificates = await createTestCertificates(['127.0.0.1', 'localhost', 'probe.test']);
    server = await startProbeServer(certificates, (_req, res) => json(res, 200, { passed: true, evidence: 'reached' }));
  });

  afterAll(async () => {
    await server.close();
    await certificates.remove();
  });

  /** Runs `call` and checks that it opened no connection to the test server. */
  async function withoutConnecting<T>(call: () => Promise<T>): Promise<T> {
    const before = server.connections();
    const result = await call();
    expect(server.connections()).toBe(before);
    return result;
  }

  it('refuses loopback without PROBE_ALLOW_CIDRS, by IP literal, by name and in IPv6 forms', async () => {
    const strict = createProbeClient({ ca: certificates.ca });
    const cases: Array<[string, string, RegExp]> = [
      [server.url, '127.0.0.1', /^refused to connect to 127\.0\.0\.1: it is 127\.0\.0\.1 \(loopback\)\. Probes reach public addresses only; an operator can allow a range with PROBE_ALLOW_CIDRS$/],
      [`https://localhost:${server.port}`, 'localhost', /^refused to connect to localhost: it resolves only to 127\.0\.0\.1 \(loopback\)/],
      [`https://[::1]:${server.port}`, '::1', /^refused to connect to ::1: it is ::1 \(loopback\)/],
      [`https://[::ffff:127.0.0.1]:${server.port}`, '::ffff:127.0.0.1', /^refused to connect to ::ffff:7f00:1: it is ::ffff:7f00:1 \(IPv4-mapped loopback\)/],
      [`https://0x7f.1:${server.port}`, '127.0.0.1', /^refused to connect to 127\.0\.0\.1: it is 127\.0\.0\.1 \(loopback\)/],
      [`https://0.0.0.0:${server.port}`, '0.0.0.0', /^refused to connect to 0\.0\.0\.0: it is 0\.0\.0\.0 \(unspecified\)/],
    ];
    for (const [origin, host, reason] of cases) {
      expectFailure(await withoutConnecting(() => strict.call({ url: `${origin}/probe`, token: TOKEN, allowedHosts: [host] })), reason, TOKEN);
    }
  });

  it('reaches the same server once the operator allows 127.0.0.1/32', async () => {
    const allowing = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca });
    expect(await allowing.call({ url: `${server.url}/probe`, token: TOKEN, allowedHosts: ['127.0.0.1'] })).toMatchObject({ ok: true, evidence: 'reached' });
    // The range is exact: the rest of 127/8 stays refused.
    expectFailure(
      await allowing.call({ url: `https://127.0.0.2:${server.port}/probe`, token: TOKEN, allowedHosts: ['127.0.0.2'] }),
      /it is 127\.0\.0\.2 \(loopback\)/,
      TOKEN,
    );
  });

  it('refuses a name whose every address is private, link-local or otherwise special, listing them', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['10.0.0.5'], /it resolves only to 10\.0\.0\.5 \(private\)\./],
      [['169.254.169.254'], /it resolves only to 169\.254\.169\.254 \(link-local\)\./],
      [['192.168.1.1', 'fd00::1'], /it resolves only to 192\.168\.1\.1 \(private\), fd00::1 \(unique-local\)\./],
      [['100.64.0.1'], /it resolves only to 100\.64\.0\.1 \(shared \(carrier-grade NAT\)\)\./],
      [['::ffff:10.0.0.1'], /it resolves only to ::ffff:10\.0\.0\.1 \(IPv4-mapped private\)\./],
      [['64:ff9b::a9fe:a9fe'], /it resolves only to 64:ff9b::a9fe:a9fe \(NAT64 link-local\)\./],
      [['224.0.0.1', '255.255.255.255'], /it resolves only to 224\.0\.0\.1 \(multicast\), 255\.255\.255\.255 \(broadcast\)\./],
    ];
    for (const [addresses, reason] of cases) {
      const client = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca, resolveHost: resolvingTo(...addresses) });
      expectFailure(
        await withoutConnecting(() => client.call({ url: `https://probe.test:${server.port}/probe`, token: TOKEN, allowedHosts: ['probe.test'] })),
        reason,
        TOKEN,
      );
    }
    const empty = createProbeClient({ ca: certificates.ca, resolveHost: resolvingTo() });
    expectFailure(await empty.call({ url: 'https://probe.test/probe', token: TOKEN, allowedHosts: ['probe.test'] }), /^the probe host probe\.test resolves to no address$/, TOKEN);
  });

  it("refuses a host outside the job's allowlist before resolving or connecting", async () => {
    const lookups: string[] = [];
    const client = createProbeClient({
      allowCidrs: ['127.0.0.1/32'],
      ca: certificates.ca,
      resolveHost: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const cases: Array<[string, string[]]> = [
      ['probe.test', ['shop.example']],
      ['probe.test', ['sub.probe.test', 'test']],
      ['evil.probe.test', ['probe.test']],
      ['probe.test', []],
    ];
    for (const [host, allowedHosts] of cases) {
      expectFailure(
        await withoutConnecting(() => client.call({ url: `https://${host}:${server.port}/probe`, token: TOKEN, allowedHosts })),
        new RegExp(`^the probe host ${host.replace(/\./g, '\\.')} is not in the job's host allowlist \\(.*\\); add it to networkAllowlist$`),
        TOKEN,
      );
    }
    expect(lookups).toEqual([]);
  });

  it('refuses plain HTTP, credentials in the URL, a non-URL and an unusable token, echoing none of them', async () => {
    const client = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca });
    const secretUrl = `https://probe-user:url-pa55word@127.0.0.1:${server.port}/probe?key=url-secret-key`;
    const cases: Array<[{ url: string; token: string }, RegExp]> = [
      [{ url: `http://127.0.0.1:${server.port}/probe?key=url-secret-key`, token: TOKEN }, /^the probe URL must use https \(it uses http\)$/],
      [{ url: secretUrl, token: TOKEN }, /^the probe URL must not carry a user name or password/],
      [{ url: 'probe.test/orders?key=url-secret-key', token: TOKEN }, /^the probe URL is not a valid absolute URL$/],
      [{ url: `${server.url}/probe?key=url-secret-key`, token: '' }, /^the probe token is empty or has characters a header cannot carry/],
      [{ url: `${server.url}/probe?key=url-secret-key`, token: `${TOKEN}\r\nX-Injected: yes` }, /^the probe token is empty or has characters a header cannot carry/],
    ];
    for (const [input, reason] of cases) {
      const result = await withoutConnecting(() => client.call({ ...input, allowedHosts: ['127.0.0.1'] }));
      const shown = expectFailure(result, reason, TOKEN);
      for (const secret of ['url-secret-key', 'url-pa55word', 'X-Injected']) expect(shown).not.toContain(secret);
    }
  });

  it('masks the token even in a reason that would otherwise hold it', async () => {
    // An unlucky token that equals the host: the allowlist refusal names the host, and the mask shows instead.
    const client = createProbeClient({ ca: certificates.ca });
    const result = await client.call({ url: 'https://tok3n-host.example/probe', token: 'tok3n-host.example', allowedHosts: ['other.example'] });
    expectFailure(result, /^the probe host \[token\] is not in the job's host allowlist/, 'tok3n-host.example');
  });

  it('refuses a bad PROBE_ALLOW_CIDRS entry when the client is built, not at call time', () => {
    let thrown: unknown;
    try {
      createProbeClient({ allowCidrs: ['127.0.0.1/32', '10.0.0.1/8'] });
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown) && thrown.code).toBe('probe.invalid_allow_cidr');
    expect((thrown as Error).message).toBe('PROBE_ALLOW_CIDRS: "10.0.0.1/8" has bits set past its /8 prefix (did you mean 10.0.0.0/8?)');
  });
});
