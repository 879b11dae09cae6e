import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSign, generateKeyPairSync } from 'node:crypto';
import { App } from '@octokit/app';
import { Octokit } from '@octokit/rest';
import { startFakeCodehost, type FakeCodehost } from '../../fakes/codehost-api.js';

const APP_ID = 4711;
const INSTALLATION = 31337;

// Test keys are made here, never committed.
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const otherKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

/** An RS256 JWT with these claims, signed with `privateKey` (what universal-github-app-jwt makes for Octokit). */
function jwt(claims: Record<string, unknown>, privateKey: string = appKeys.privateKey): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(privateKey).toString('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);

describe('fake code-host API', () => {
  let fake: FakeCodehost;
  beforeAll(async () => {
    fake = await startFakeCodehost({ appId: APP_ID, publicKey: appKeys.publicKey, botName: 'qa-bot' });
    fake.addInstallation(INSTALLATION);
  });
  afterAll(async () => {
    await fake?.close();
  });

  const exchange = (token: string, installation = INSTALLATION) =>
    fetch(`${fake.url}/app/installations/${installation}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' } });

  it('exchanges a JWT made by @octokit/app for an installation token, which @octokit/rest then uses on every route', async () => {
    const app = new App({ appId: APP_ID, privateKey: appKeys.privateKey, Octokit: Octokit.defaults({ baseUrl: fake.url }) });
    fake.setPullFiles('acme/shop', 7, [{ filename: 'src/cart.ts' }, { filename: 'README.md', status: 'added' }]);
    fake.setPermission('acme/shop', 'alice', 'write');

    const octokit = (await app.getInstallationOctokit(INSTALLATION)) as unknown as Octokit;
    const files = await octokit.rest.pulls.listFiles({ owner: 'acme', repo: 'shop', pull_number: 7 });
    const permission = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: 'acme', repo: 'shop', username: 'alice' });
    const stranger = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: 'acme', repo: 'shop', username: 'mallory' });
    const comment = await octokit.rest.issues.createComment({ owner: 'acme', repo: 'shop', issue_number: 7, body: 'Running 3 checks…' });
    await octokit.rest.issues.updateComment({ owner: 'acme', repo: 'shop', comment_id: comment.data.id, body: 'All 3 checks passed' });
    const run = await octokit.rest.checks.create({ owner: 'acme', repo: 'shop', name: 'QA', head_sha: 'a'.repeat(40), status: 'in_progress' });
    await octokit.rest.checks.update({ owner: 'acme', repo: 'shop', check_run_id: run.data.id, status: 'completed', conclusion: 'success', output: { title: 'QA', summary: 'ok' } });

    expect(files.data.map((file) => file.filename)).toEqual(['src/cart.ts', 'README.md']);
    expect(permission.data.permission).toBe('write');
    expect(stranger.data.permission).toBe('none');
    expect(comment.data.user?.login).toBe('qa-bot[bot]');
    expect(fake.comments).toEqual([expect.objectContaining({ repo: 'acme/shop', issueNumber: 7, body: 'All 3 checks passed', edits: 1 })]);
    expect(fake.checkRuns).toEqual([expect.objectContaining({ repo: 'acme/shop', name: 'QA', status: 'completed', conclusion: 'success', updates: 1 })]);
    expect(fake.requests.filter((request) => request.path.endsWith('/access_tokens'))).toEqual([expect.objectContaining({ auth: 'jwt', status: 201 })]);
  });

  describe('refuses an app JWT (401) that', () => {
    const cases: [string, () => string][] = [
      ['is signed with another key', () => jwt({ iss: APP_ID, iat: now() - 30, exp: now() + 300 }, otherKeys.privateKey)],
      ['names another app', () => jwt({ iss: 9999, iat: now() - 30, exp: now() + 300 })],
      ['lives longer than 10 minutes', () => jwt({ iss: APP_ID, iat: now() - 30, exp: now() - 30 + 601 })],
      ['has expired', () => jwt({ iss: APP_ID, iat: now() - 700, exp: now() - 100 })],
      ['is not a JWT', () => 'not-a-jwt.at.all'],
    ];
    it.each(cases)('%s', async (_name, token) => {
      const response = await exchange(token());
      expect(response.status).toBe(401);
      expect(((await response.json()) as { message: string }).message).toEqual(expect.any(String));
    });
  });

  it('answers 404 for an installation it does not know, and 401 for an unknown or expired installation token', async () => {
    expect((await exchange(jwt({ iss: APP_ID, iat: now() - 30, exp: now() + 570 }), 1)).status).toBe(404);
    const unknown = await fetch(`${fake.url}/repos/acme/shop/collaborators/alice/permission`, { headers: { authorization: 'token ghs_unknown' } });
    expect(unknown.status).toBe(401);

    const shortLived = await startFakeCodehost({ appId: APP_ID, publicKey: appKeys.publicKey, tokenLifetimeMs: 1 });
    try {
      shortLived.addInstallation(INSTALLATION);
      const issued = (await (await fetch(`${shortLived.url}/app/installations/${INSTALLATION}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt({ iss: APP_ID, iat: now() - 30, exp: now() + 570 })}` } })).json()) as { token: string };
      await new Promise((resolve) => setTimeout(resolve, 5));
      const expired = await fetch(`${shortLived.url}/repos/acme/shop/collaborators/alice/permission`, { headers: { authorization: `token ${issued.token}` } });
      expect(expired.status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it('answers 429 with retry-after, then 503, for the next calls it was told to, then normally', async () => {
    const token = jwt({ iss: APP_ID, iat: now() - 30, exp: now() + 570 });
    fake.failNext(1, 429, 42);
    const limited = await exchange(token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('42');

    fake.failNext(2, 503);
    expect((await exchange(token)).status).toBe(503);
    expect((await exchange(token)).status).toBe(503);
    expect((await exchange(token)).status).toBe(201);
  });
});
