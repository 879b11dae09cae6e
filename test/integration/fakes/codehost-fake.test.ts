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

  it('pages a PR\'s comments and a commit\'s check runs as GitHub does, so Octokit\'s paginate walks them', async () => {
    const app = new App({ appId: APP_ID, privateKey: appKeys.privateKey, Octokit: Octokit.defaults({ baseUrl: fake.url }) });
    const octokit = (await app.getInstallationOctokit(INSTALLATION)) as unknown as Octokit;
    for (let i = 0; i < 45; i += 1) fake.addComment('acme/pages', 3, `comment ${i}`);
    const sha = 'b'.repeat(40);
    const first = await octokit.rest.checks.create({ owner: 'acme', repo: 'pages', name: 'QA', head_sha: sha, external_id: 'job-1' });
    await octokit.rest.checks.create({ owner: 'acme', repo: 'pages', name: 'QA', head_sha: sha, external_id: 'job-2', status: 'in_progress' });
    fake.addCheckRun('acme/pages', { name: 'Other', head_sha: sha, app_id: 99 });

    const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner: 'acme', repo: 'pages', issue_number: 3, per_page: 20 });
    const all = await octokit.paginate(octokit.rest.checks.listForRef, { owner: 'acme', repo: 'pages', ref: sha, filter: 'all', per_page: 1 });
    const latest = await octokit.rest.checks.listForRef({ owner: 'acme', repo: 'pages', ref: sha, app_id: APP_ID });

    expect(comments.map((comment) => comment.body)).toEqual(Array.from({ length: 45 }, (_, i) => `comment ${i}`));
    expect(comments[0]!.user).toEqual({ login: 'someone', type: 'User' });
    expect(all.map((run) => [run.external_id, run.app?.id])).toEqual([['job-1', APP_ID], ['job-2', APP_ID], [null, 99]]);
    expect(latest.data).toMatchObject({ total_count: 1, check_runs: [{ external_id: 'job-2', status: 'in_progress' }] });
    expect(first.data).toMatchObject({ status: 'queued', external_id: 'job-1', head_sha: sha });
    expect(fake.requests.filter((request) => request.path.startsWith('/repos/acme/pages/issues/3/comments')).map((request) => request.path)).toEqual([
      '/repos/acme/pages/issues/3/comments?per_page=20',
      '/repos/acme/pages/issues/3/comments?per_page=20&page=2',
      '/repos/acme/pages/issues/3/comments?per_page=20&page=3',
    ]);
  });

  it('refuses what GitHub refuses: a comment over 65,536 characters, a summary over 65,535, another app\'s check run, a person\'s comment', async () => {
    // Octokit logs each refused request; the statuses are asserted here.
    const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const app = new App({ appId: APP_ID, privateKey: appKeys.privateKey, Octokit: Octokit.defaults({ baseUrl: fake.url, log }), log });
    const octokit = (await app.getInstallationOctokit(INSTALLATION)) as unknown as Octokit;
    const status = (call: Promise<unknown>) => call.then(() => 200, (error: { status: number }) => error.status);
    const foreign = fake.addCheckRun('acme/limits', { name: 'Other', head_sha: 'c'.repeat(40), app_id: 99 });
    const persons = fake.addComment('acme/limits', 1, 'hello');

    expect(await status(octokit.rest.issues.createComment({ owner: 'acme', repo: 'limits', issue_number: 1, body: 'x'.repeat(65_537) }))).toBe(422);
    expect(await status(octokit.rest.issues.createComment({ owner: 'acme', repo: 'limits', issue_number: 1, body: 'x'.repeat(65_536) }))).toBe(200);
    expect(await status(octokit.rest.checks.create({ owner: 'acme', repo: 'limits', name: 'QA', head_sha: 'c'.repeat(40), output: { title: 'QA', summary: 'x'.repeat(65_536) } }))).toBe(422);
    expect(await status(octokit.rest.checks.update({ owner: 'acme', repo: 'limits', check_run_id: foreign.id, status: 'completed', conclusion: 'success' }))).toBe(403);
    expect(await status(octokit.rest.issues.updateComment({ owner: 'acme', repo: 'limits', comment_id: persons.id, body: 'edited' }))).toBe(403);
  });
});
