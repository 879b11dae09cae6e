/**
 * Everything a probe can do wrong, each a failure with a reason an operator can act on, and never the token:
 * redirects, error statuses, bodies that are not the verdict, oversized or compressed bodies, a probe slower than
 * the deadline, certificates that do not verify, and nothing listening.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { createProbeClient, MAX_PROBE_RESPONSE_BYTES, type ProbeClient, type ResolvedAddress } from '../../../src/probes/probe-client.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { expectFailure, json, startProbeServer, type ProbeServer } from './probe-servers.js';

const TOKEN = 'probe-token-c0ffee-51d2';
const DEADLINE_MS = 400;

/** Answers for the paths the tests call, one little probe misbehaving per path. */
const ROUTES: Record<string, (res: ServerResponse, target: string) => void> = {
  '/redirect': (res, target) => res.writeHead(302, { location: `${target}/landing?token=${TOKEN}` }).end(),
  '/moved': (res, target) => res.writeHead(301, { location: `${target}/landing` }).end(),
  '/error': (res) => json(res, 500, { passed: true, evidence: 'ignored: the status says it failed' }),
  '/not-found': (res) => res.writeHead(404).end(),
  '/html': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>Hello ${TOKEN}</body></html>`),
  '/empty': (res) => res.writeHead(204).end(),
  '/string-passed': (res) => json(res, 200, { passed: 'true', evidence: 'looks fine' }),
  '/no-evidence': (res) => json(res, 200, { passed: true }),
  '/array': (res) => json(res, 200, [{ passed: true, evidence: 'x' }]),
  '/exactly-at-bound': (res) => {
    const verdict = JSON.stringify({ passed: true, evidence: 'padded' });
    res.writeHead(200, { 'content-type': 'application/json' }).end(verdict + ' '.repeat(MAX_PROBE_RESPONSE_BYTES - verdict.length));
  },
  '/too-large-declared': (res) => {
    const body = JSON.stringify({ passed: true, evidence: 'x'.repeat(MAX_PROBE_RESPONSE_BYTES) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  },
  '/too-large-chunked': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"passed": true, "evidence": "');
    for (let i = 0; i < 100; i += 1) res.write('y'.repeat(1024));
    res.end('"}');
  },
  '/gzip': (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not really gzip'),
  '/slow-body': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"passed": true, "evid'); // and never the rest
  },
  '/slow-headers': () => undefined, // never answers
  '/echo-evidence': (res) => json(res, 200, { passed: true, evidence: `the token was ${TOKEN}` }),
};

describe('probe client: failures', () => {
  let certificates: TestCertificates;
  let server: ProbeServer;
  let client: ProbeClient;
  const call = (path: string, token = TOKEN) => client.call({ url: `${server.url}${path}`, token, allowedHosts: ['127.0.0.1'] });

  beforeAll(async () => {
    certificates = await createTestCertificates(['127.0.0.1', 'localhost']);
    server = await startProbeServer(certificates, (req, res) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const route = ROUTES[path];
      if (route) route(res, server.url);
      else json(res, 200, { passed: true, evidence: `landed on ${path}` });
    });
    client = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca, timeoutMs: DEADLINE_MS });
  });

  afterAll(async () => {
    await server.close();
    await certificates.remove();
  });

  it('does not follow a redirect: it names the status and never requests the Location', async () => {
    const before = server.requests.length;
    expectFailure(await call('/redirect'), /^the probe answered HTTP 302, a redirect; redirects are not followed, so give the probe's final URL$/, TOKEN);
    expectFailure(await call('/moved'), /^the probe answered HTTP 301, a redirect/, TOKEN);
    expect(server.requests.slice(before).map((request) => request.url)).toEqual(['/redirect', '/moved']);
  });

  it('fails on an error status, naming it, even when the body looks like a verdict', async () => {
    expectFailure(await call('/error'), /^the probe answered HTTP 500; it must answer 2xx with JSON \{"passed": boolean, "evidence": string\}$/, TOKEN);
    expectFailure(await call('/not-found'), /^the probe answered HTTP 404;/, TOKEN);
  });

  it('fails on a body that is not JSON, naming its content type and not echoing it', async () => {
    expectFailure(await call('/html'), /^the probe answered a body that is not JSON \(Content-Type: text\/html\); it must be JSON/, TOKEN);
    expectFailure(await call('/empty'), /^the probe answered an empty body;/, TOKEN);
  });

  it('fails on JSON of the wrong shape, saying which field is wrong', async () => {
    expectFailure(await call('/string-passed'), /: "passed" must be a boolean \(true or false\) \(got a string\)$/, TOKEN);
    expectFailure(await call('/no-evidence'), /: "evidence" is missing$/, TOKEN);
    expectFailure(await call('/array'), /^the probe answered an array where JSON \{"passed": boolean, "evidence": string\} was expected$/, TOKEN);
  });

  it('accepts a body of exactly 64 KiB and refuses anything larger, declared or streamed', async () => {
    expect(await call('/exactly-at-bound')).toMatchObject({ ok: true, passed: true, evidence: 'padded' });
    expectFailure(await call('/too-large-declared'), /^the probe's response is 65565 bytes, over the 64 KiB bound$/, TOKEN);
    expectFailure(await call('/too-large-chunked'), /^the probe's response is larger than 64 KiB; it must be a small JSON object$/, TOKEN);
  });

  it('refuses a compressed body (it asked for identity)', async () => {
    expectFailure(await call('/gzip'), /^the probe answered with Content-Encoding gzip; it must answer uncompressed JSON$/, TOKEN);
    expect(server.requests.find((request) => request.url === '/gzip')?.headers['accept-encoding']).toBe('identity');
  });

  it('gives up at the deadline, mid-body or before any header, and closes the connection', async () => {
    expectFailure(await call('/slow-body'), new RegExp(`^the probe did not answer within ${DEADLINE_MS} ms \\(DNS, connection and the whole body\\)$`), TOKEN);
    expectFailure(await call('/slow-headers'), new RegExp(`^the probe did not answer within ${DEADLINE_MS} ms`), TOKEN);
    await server.idle();
  });

  it('stops a call in flight when the caller cancels, and closes the connection', async () => {
    const controller = new AbortController();
    const before = server.requests.length;
    const pending = client.call({ url: `${server.url}/slow-headers`, token: TOKEN, allowedHosts: ['127.0.0.1'], signal: controller.signal });
    await server.requestArrived(before);
    controller.abort();
    expectFailure(await pending, /^the probe call was cancelled before it finished$/, TOKEN);
    await server.idle();
  });

  it('masks the token where a probe echoes it into the evidence', async () => {
    expect(await call('/echo-evidence')).toMatchObject({ ok: true, evidence: 'the token was [token]' });
  });

  it('refuses a certificate from a CA it does not trust, and says so', async () => {
    const untrusting = createProbeClient({ allowCidrs: ['127.0.0.1/32'] });
    expectFailure(
      await untrusting.call({ url: `${server.url}/landing`, token: TOKEN, allowedHosts: ['127.0.0.1'] }),
      /^the TLS certificate of 127\.0\.0\.1 \(127\.0\.0\.1\) is not signed by a trusted CA \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/,
      TOKEN,
    );
    const otherCa = await createTestCertificates(['127.0.0.1']);
    try {
      const trustsAnother = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: otherCa.ca });
      expectFailure(await trustsAnother.call({ url: `${server.url}/landing`, token: TOKEN, allowedHosts: ['127.0.0.1'] }), /is not signed by a trusted CA/, TOKEN);
    } finally {
      await otherCa.remove();
    }
  });

  it('refuses a trusted certificate that does not name the host it was asked for', async () => {
    const resolveHost = async (): Promise<ResolvedAddress[]> => [{ address: '127.0.0.1', family: 4 }];
    const named = createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: certificates.ca, resolveHost });
    expectFailure(
      await named.call({ url: `https://elsewhere.test:${server.port}/landing`, token: TOKEN, allowedHosts: ['elsewhere.test'] }),
      /^the TLS certificate of elsewhere\.test \(127\.0\.0\.1\) is not valid for the name elsewhere\.test \(ERR_TLS_CERT_ALTNAME_INVALID\)$/,
      TOKEN,
    );
  });

  it('says when nothing listens or the name does not resolve', async () => {
    const closed = await startProbeServer(certificates, () => undefined);
    await closed.close();
    expectFailure(await client.call({ url: `${closed.url}/x`, token: TOKEN, allowedHosts: ['127.0.0.1'] }), /^127\.0\.0\.1 \(127\.0\.0\.1\) refused the connection/, TOKEN);

    const resolveHost = async (): Promise<ResolvedAddress[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND gone.test'), { code: 'ENOTFOUND' });
    };
    const unresolving = createProbeClient({ ca: certificates.ca, resolveHost });
    expectFailure(await unresolving.call({ url: 'https://gone.test/x', token: TOKEN, allowedHosts: ['gone.test'] }), /^the probe host gone\.test does not resolve \(ENOTFOUND\)$/, TOKEN);
  });
});
