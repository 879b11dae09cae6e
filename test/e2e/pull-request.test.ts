/**
 * The pull-request flow end to end, as the issue's "Done when" puts it: the real `qa start` process, the fake code
 * host (its REST API, app JWT and installation tokens), the demo shop, and signed deliveries as GitHub sends them.
 * A pull request opened on a connected repository runs the repository's checks and ends in a completed check run and
 * one edited comment per job; a `/qa` comment conversation (a question, `/qa answer`, the answered run) works the
 * same way.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../src/identity/api-keys.js';
import { connectInstallation } from '../../src/store/repository-admission.js';
import { startFakeCodehost, type FakeCodehost } from '../fakes/codehost-api.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../fixtures/demo-app/index.js';
import { BACKLOG_SECRET_REFS, backlogCheck, insertActiveCheck } from '../support/backlog.js';
import { insertRepository } from '../support/check-fixtures.js';
import { examplePayload, signedDelivery } from '../support/codehost-deliveries.js';
import { testMysqlUrl } from '../support/databases.js';
import { useTestStore } from '../support/dialects.js';
import { freePort, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

const SECRET = 'e2e-pull-request-webhook-secret';
const APP_ID = 4242;
const INSTALLATION = 9_021_337;
const BOT = 'qa-e2e';
const OWNER = 'acme';
const REPO = 'shop';
const HEAD = 'a'.repeat(39) + '1';
const PUBLIC_BASE_URL = 'https://qa.example.test';
const REVIEW_TASK = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10, check that the total shows $90, check out and place the order';

const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

/** Polls `probe` until it answers something; rejects after `timeoutMs` saying what was awaited. */
async function eventually<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** GitHub's recorded `pull_request.opened`, made about acme/shop's PR `number` at `sha` through our installation. */
function pullRequestOpened(number: number, sha: string): Record<string, unknown> {
  const payload = examplePayload('pull_request', 'opened') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a recorded payload, edited field by field
  const repository = { ...payload.repository, name: REPO, full_name: `${OWNER}/${REPO}`, owner: { ...payload.repository.owner, login: OWNER } };
  payload.repository = repository;
  payload.installation = { id: INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uOTAyMTMzNw==' };
  payload.number = number;
  payload.pull_request = {
    ...payload.pull_request,
    number,
    draft: false,
    updated_at: new Date().toISOString(),
    head: { ...payload.pull_request.head, sha, repo: repository },
    base: { ...payload.pull_request.base, repo: repository },
  };
  return payload;
}

/** GitHub's recorded `issue_comment.created`, a comment by `login` on acme/shop's PR `number`. */
function prComment(number: number, login: string, body: string): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  const repository = { ...payload.repository, name: REPO, full_name: `${OWNER}/${REPO}`, owner: { ...payload.repository.owner, login: OWNER } };
  payload.repository = repository;
  payload.installation = { id: INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uOTAyMTMzNw==' };
  payload.issue = { ...payload.issue, number, user: { ...payload.issue.user, login: 'pr-author' }, pull_request: { url: `https://api.codehost.example/repos/${OWNER}/${REPO}/pulls/${number}` } };
  payload.comment = { ...payload.comment, id: Math.floor(Math.random() * 1e9), body, user: { ...payload.comment.user, login, type: 'User' } };
  payload.sender = { ...payload.sender, login, type: 'User' };
  return payload;
}

describe('pull requests end to end (qa start, the fake code host, the demo shop)', () => {
  let demo: DemoApp;
  let codehost: FakeCodehost;
  let qa: QaProcess;
  let base: string;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-e2e-pr-'));
  afterAll(async () => {
    if (qa && qa.child.exitCode === null) {
      qa.child.kill('SIGTERM');
      const timer = setTimeout(() => qa.child.kill('SIGKILL'), 15_000);
      await qa.exited;
      clearTimeout(timer);
    }
    await codehost?.close();
    await demo?.close();
    rmSync(artifactsDir, { recursive: true, force: true });
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    demo = await startDemoApp();
    codehost = await startFakeCodehost({ appId: APP_ID, publicKey: appKeys.publicKey, botName: BOT });
    codehost.addInstallation(INSTALLATION);
    const port = await freePort();
    qa = spawnQa(['start'], {
      DATABASE_URL: testMysqlUrl(),
      PORT: String(port),
      ARTIFACTS_DIR: artifactsDir,
      QUEUE_POLL_INTERVAL_MS: '50',
      SHUTDOWN_GRACE_MS: '2000',
      BROWSER_STEP_TIMEOUT_MS: '3000',
      NOTIFY_MIN_INTERVAL_MS: '300',
      PUBLIC_BASE_URL,
      CODEHOST_WEBHOOK_SECRET: SECRET,
      CODEHOST_APP_ID: String(APP_ID),
      CODEHOST_PRIVATE_KEY: appKeys.privateKey,
      CODEHOST_API_URL: codehost.url,
      CODEHOST_BOT_NAME: BOT,
      DEMO_EMAIL: DEFAULT_ACCOUNT.email,
      DEMO_PASSWORD: DEFAULT_ACCOUNT.password,
    });
    await until(() => qa.run.stdout.includes('running; stop with SIGTERM or SIGINT') || qa.child.exitCode !== null, 'qa start to run', 60_000);
    if (qa.child.exitCode !== null) throw new Error(`qa start exited: ${qa.run.stderr}`);
    base = `http://127.0.0.1:${port}`;
  }, 90_000);

  let organizationId: string;
  let repositoryId: string;
  beforeEach(async () => {
    codehost.comments.splice(0);
    codehost.checkRuns.splice(0);
    ({ organization: { id: organizationId } } = await createApiKey(store(), 'acme'));
    await connectInstallation(store(), 'codehost', String(INSTALLATION), 'acme');
    repositoryId = await insertRepository(store(), organizationId, {
      providerInstallationId: String(INSTALLATION),
      owner: OWNER,
      name: REPO,
      baseUrl: demo.url,
      networkAllowlist: ['localhost'],
      testValueSecretRefs: BACKLOG_SECRET_REFS,
    });
  });

  async function deliver(event: string, payload: unknown): Promise<void> {
    const signed = await signedDelivery(SECRET, event, payload, randomUUID());
    const response = await fetch(`${base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
  }
  const completedRuns = () => codehost.checkRuns.filter((run) => run.status === 'completed');
  const jobsOf = async () => (await store().query('SELECT id, status, `trigger` AS triggerKind, commit_sha AS commitSha, parent_job_id AS parentJobId FROM jobs ORDER BY created_at')) as { id: string; status: string; triggerKind: string; commitSha: string; parentJobId: string | null }[];

  it('runs the repository’s active checks when a pull request opens, ending in a completed check run and one edited comment per check', async () => {
    const checkId = await insertActiveCheck(store(), organizationId, repositoryId, backlogCheck(50));

    await deliver('pull_request', pullRequestOpened(7, HEAD));

    const [run] = await eventually(() => (completedRuns().length === 1 ? completedRuns() : undefined), 'the check run to complete', 120_000);
    expect(run).toMatchObject({ repo: `${OWNER}/${REPO}`, head_sha: HEAD, conclusion: 'success' });
    const jobs = await jobsOf();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'passed', commitSha: HEAD });
    const [{ check_id: ranCheck }] = (await store().query('SELECT check_id FROM jobs WHERE id = ?', [jobs[0]!.id])) as { check_id: string }[];
    expect(ranCheck).toBe(checkId);
    const comments = codehost.comments.filter((comment) => comment.issueNumber === 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.edits).toBeGreaterThanOrEqual(1);
    expect(comments[0]!.body).toMatch(/passed/i);
    expect(comments[0]!.body).toContain(jobs[0]!.id);
    expect(comments[0]!.body).not.toContain(DEFAULT_ACCOUNT.password);
  }, 180_000);

  it('cancels a run when a newer commit is pushed and the next one when the pull request closes, and says why on each check run and comment', async () => {
    // A slow page: each run is still in the browser when the next event comes.
    await insertActiveCheck(store(), organizationId, repositoryId, backlogCheck(20_000));
    const later = (payload: Record<string, unknown>, action: string, sha: string, at: Date) => {
      const pull = payload.pull_request as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
      return { ...payload, action, pull_request: { ...pull, updated_at: at.toISOString(), head: { ...pull.head, sha } } };
    };
    const opened = pullRequestOpened(8, HEAD);
    const pushed = 'b'.repeat(39) + '2';
    const runOf = (sha: string, status: string) => codehost.checkRuns.find((run) => run.head_sha === sha && run.status === status);
    const commentOf = (jobId: string) => codehost.comments.find((comment) => comment.issueNumber === 8 && comment.body.includes(jobId));

    await deliver('pull_request', opened);
    await eventually(() => runOf(HEAD, 'in_progress'), 'the first run to start', 60_000);
    await deliver('pull_request', later(opened, 'synchronize', pushed, new Date(Date.now() + 1_000)));
    const first = await eventually(() => runOf(HEAD, 'completed'), 'the first run to end', 60_000);
    expect(first).toMatchObject({ conclusion: 'cancelled', output: expect.objectContaining({ title: 'Cancelled: a newer commit (bbbbbbb) was pushed to the pull request' }) });

    await eventually(() => runOf(pushed, 'in_progress'), 'the pushed commit’s run to start', 60_000);
    await deliver('pull_request', later(opened, 'closed', pushed, new Date(Date.now() + 2_000)));
    const second = await eventually(() => runOf(pushed, 'completed'), 'the second run to end', 60_000);
    expect(second).toMatchObject({ conclusion: 'cancelled', output: expect.objectContaining({ title: 'Cancelled: the pull request was closed' }) });

    const jobs = await jobsOf();
    expect(jobs.map((job) => [job.commitSha, job.status])).toEqual([[HEAD, 'cancelled'], [pushed, 'cancelled']]);
    const comments = await eventually(
      () => jobs.map((job) => commentOf(job.id)).every((comment) => comment?.body.includes('🚫')) && jobs.map((job) => commentOf(job.id)!.body),
      'both comments to say cancelled',
    );
    expect(comments[0]).toContain('### 🚫 QA: Cancelled: a newer commit (bbbbbbb) was pushed to the pull request');
    expect(comments[1]).toContain('### 🚫 QA: Cancelled: the pull request was closed');
  }, 180_000);

  it('holds a /qa conversation: a question on the PR, `/qa answer`, and the answered run reported on its own check run', async () => {
    codehost.setPermission(`${OWNER}/${REPO}`, 'reviewer', 'write');
    codehost.setPull(`${OWNER}/${REPO}`, 8, { headSha: HEAD, author: 'pr-author' });

    await deliver('issue_comment', prComment(8, 'reviewer', `/qa ${REVIEW_TASK}`));

    const asking = await eventually(() => codehost.comments.find((comment) => comment.issueNumber === 8 && /question/i.test(comment.body)), 'the question on the PR');
    const [parent] = await jobsOf();
    expect(parent).toMatchObject({ status: 'review_required' });
    expect(asking.body).toContain('/qa answer');
    const [{ resolution }] = (await store().query('SELECT resolution FROM jobs WHERE id = ?', [parent!.id])) as { resolution: unknown }[];
    const questions = ((typeof resolution === 'string' ? JSON.parse(resolution) : resolution) as { questions: string[] }).questions;

    const answers = questions.map((_question, index) => `${index + 1}. Yes, place the order; it is a test store`).join('\n');
    await deliver('issue_comment', prComment(8, 'reviewer', `/qa answer\n${answers}`));

    const childRun = await eventually(() => completedRuns().find((run) => run.conclusion !== 'neutral'), 'the answered run’s check run to complete', 150_000);
    expect(childRun.conclusion).toBe('success');
    const jobs = await jobsOf();
    expect(jobs.map((job) => job.parentJobId)).toEqual([null, parent!.id]);
    expect(demo.orders()).toHaveLength(1);
    // One comment per job: the parent's shows it was answered, the child's its final state.
    const comments = codehost.comments.filter((comment) => comment.issueNumber === 8);
    expect(comments.filter((comment) => comment.body.includes(jobs[1]!.id) && /passed/i.test(comment.body))).toHaveLength(1);
    expect(codehost.checkRuns.filter((run) => run.conclusion === 'neutral')).toHaveLength(1);
  }, 240_000);
});
