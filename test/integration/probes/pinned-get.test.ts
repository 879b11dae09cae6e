/**
 * The transport under the probe client: one GET to the vetted address. Its own guard, independent of the pinned
 * DNS lookup, drops a connection that reached any other address before a request (and so the token) is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isAppError } from '../../../src/core/errors.js';
import { pinnedGet } from '../../../src/probes/pinned-get.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { startProbeServer, type ProbeServer } from './probe-servers.js';

describe('pinned GET', () => {
  let certificates: TestCertificates;
  let server: ProbeServer;

  beforeAll(async () => {
    certificates = await createTestCertificates(['127.0.0.1']);
    server = await startProbeServer(certificates, (_req, res) => res.end('{"passed":true,"evidence":"hi"}'));
  });

  afterAll(async () => {
    await server.close();
    await certificates.remove();
  });

  const get = (address: string) =>
    pinnedGet(
      { url: new URL(`${server.url}/probe`), address, family: 4 },
      { headers: { authorization: 'Bearer pinned-secret' }, ca: [certificates.ca], signal: new AbortController().signal },
    );

  it('reads the body from the pinned address', async () => {
    const response = await get('127.0.0.1');
    expect(response.status).toBe(200);
    expect((await response.readBody(1024)).toString()).toBe('{"passed":true,"evidence":"hi"}');
  });

  it('drops a connection that reached an address other than the checked one, before sending the request', async () => {
    // An IP-literal host is connected to without any lookup, so the pin (127.0.0.2) and the socket (127.0.0.1) differ.
    const requestsBefore = server.requests.length;
    const error = await get('127.0.0.2').then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(isAppError(error) && { code: error.code, message: error.message }).toEqual({
      code: 'probe.address_mismatch',
      message: 'the connection to 127.0.0.1 reached an address that was not checked',
    });
    expect(server.requests.length).toBe(requestsBefore);
  });
});
