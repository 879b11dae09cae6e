import { afterEach, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodehostClient, REFRESH_BEFORE_EXPIRY_MS } from '../../../src/codehost/codehost-client.js';
import { startFakeCodehost, type FakeCodehost } from '../../fakes/codehost-api.js';

const APP_ID = 4711;
const INSTALLATION = 31337;
const keys = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
// Test keys are made here, never committed.
const appKeys = keys();

describe('code-host client against the fake code host', () => {
  const fakes: FakeCodehost[] = [];
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.close();
  });
  async function fake(tokenLifetimeMs?: number): Promise<FakeCodehost> {
    const started = await startFakeCodehost({ appId: APP_ID, publicKey: appKeys.publicKey, tokenLifetimeMs });
    started.addInstallation(INSTALLATION);
    fakes.push(started);
    return started;
  }
  const exchanges = (codehost: FakeCodehost) => codehost.requests.filter((request) => request.path.endsWith('/access_tokens'));
  const codedError = (code: string, details?: Record<string, unknown>) => expect.objectContaining({ code, ...(details ? { details: expect.objectContaining(details) } : {}) });

  it('exchanges a verified app JWT for an installation token and reuses it while it has long to live', async () => {
    const codehost = await fake();
    const client = createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: codehost.url });

    const [first, concurrent] = await Promise.all([client.installationToken(INSTALLATION), client.installationToken(INSTALLATION)]);
    const again = await client.installationToken(INSTALLATION);
    const octokit = await client.forInstallation(INSTALLATION);
    codehost.setPermission('acme/shop', 'alice', 'admin');
    const permission = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: 'acme', repo: 'shop', username: 'alice' });

    expect(exchanges(codehost)).toEqual([expect.objectContaining({ auth: 'jwt', status: 201 })]);
    expect(concurrent).toEqual(first);
    expect(again).toEqual(first);
    expect(codehost.tokens.map((token) => token.token)).toEqual([first.token]);
    expect(permission.data.permission).toBe('admin');
  });

  it('fetches a new token once the cached one is within the refresh margin of its expiry', async () => {
    const codehost = await fake(60 * 60_000);
    let clock = Date.now();
    const client = createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: codehost.url }, { now: () => clock });

    const first = await client.installationToken(INSTALLATION);
    clock = first.expiresAt.getTime() - REFRESH_BEFORE_EXPIRY_MS - 1_000;
    expect(await client.installationToken(INSTALLATION)).toEqual(first);
    clock = first.expiresAt.getTime() - REFRESH_BEFORE_EXPIRY_MS;
    const second = await client.installationToken(INSTALLATION);

    expect(second.token).not.toBe(first.token);
    expect(exchanges(codehost)).toHaveLength(2);
  });

  it('reads the private key from a PEM file path, and from a PEM with escaped newlines', async () => {
    const codehost = await fake();
    const path = join(mkdtempSync(join(tmpdir(), 'qa-codehost-key-')), 'app.pem');
    writeFileSync(path, appKeys.privateKey);

    await createCodehostClient({ appId: APP_ID, privateKey: path, apiUrl: codehost.url }).installationToken(INSTALLATION);
    await createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey.replace(/\n/g, '\\n'), apiUrl: codehost.url }).installationToken(INSTALLATION);

    expect(exchanges(codehost).map((request) => request.status)).toEqual([201, 201]);
  });

  it('surfaces 429 as codehost.rate_limited with retry-after, 5xx as codehost.unavailable, and caches nothing', async () => {
    const codehost = await fake();
    const client = createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: codehost.url });

    codehost.failNext(1, 429, 42);
    await expect(client.installationToken(INSTALLATION)).rejects.toEqual(codedError('codehost.rate_limited', { status: 429, retryAfterSeconds: 42 }));
    codehost.failNext(1, 502);
    await expect(client.installationToken(INSTALLATION)).rejects.toEqual(codedError('codehost.unavailable', { status: 502 }));

    await expect(client.installationToken(INSTALLATION)).resolves.toEqual(expect.objectContaining({ token: expect.stringMatching(/^ghs_/) }));
  });

  it('surfaces a JWT under the wrong key as codehost.unauthorized, an unknown installation as codehost.request_failed, and no server as codehost.unavailable', async () => {
    const codehost = await fake();

    await expect(createCodehostClient({ appId: APP_ID, privateKey: keys().privateKey, apiUrl: codehost.url }).installationToken(INSTALLATION)).rejects.toEqual(codedError('codehost.unauthorized', { status: 401 }));
    await expect(createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: codehost.url }).installationToken(1)).rejects.toEqual(codedError('codehost.request_failed', { status: 404 }));
    const gone = codehost.url;
    await codehost.close();
    fakes.splice(0);
    await expect(createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: gone }).installationToken(INSTALLATION)).rejects.toEqual(codedError('codehost.unavailable'));
  });
});
