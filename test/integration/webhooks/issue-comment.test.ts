/**
 * `/qa` comments on pull requests, end to end but for the browser: signed `issue_comment` deliveries (recorded
 * GitHub payloads) posted over HTTP to the real receiver, receipts processed by a real worker, the fake code host
 * for the head commit, permissions and replies, jobs in the real store. Runs fail at once (no browser is given):
 * what a comment starts is the subject here, not what the run finds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { ErrorCode } from '../../../src/core/errors.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { JobNotification } from '../../../src/store/entities/job-notification.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { startFakeCodehost, type FakeCodehost } from '../../fakes/codehost-api.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { examplePayload, signedDelivery } from '../../support/codehost-deliveries.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

const SECRET = 'codehost-webhook-secret-for-comment-tests';
const APP_ID = 5150;
const INSTALLATION = 424242;
const PR = 7;
const HEAD = 'a'.repeat(40);
const BOT = 'qa-bot';
const RUNNABLE_TASK = 'Check that the pricing page lists three plans';
/** The rule planner asks two questions about it (a changed account, deleted data). */
const REVIEW_TASK = 'Cancel the Pro subscription and delete the demo account';
// Test keys are made here, never committed.
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

async function until<T>(probe: () => Promise<T | undefined | false | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface CommentOptions {
  body: string;
  id?: number;
  login?: string;
  userType?: string;
  prAuthor?: string;
  action?: string;
  onPullRequest?: boolean;
  installationId?: number;
}

let nextCommentId = 9_000_000;

/** A recorded `issue_comment` payload made into a comment on pull request #7 of acme/shop through the app's installation. */
function commentPayload(options: CommentOptions): Record<string, unknown> & { comment: { id: number } } {
  const payload = examplePayload('issue_comment', 'created') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a recorded payload, changed field by field
  const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  payload.action = options.action ?? 'created';
  payload.comment = { ...payload.comment, id: options.id ?? (nextCommentId += 1), body: options.body, created_at: createdAt, updated_at: createdAt, user: { ...payload.comment.user, login: options.login ?? 'carol', type: options.userType ?? 'User' } };
  payload.issue = { ...payload.issue, number: PR, user: { ...payload.issue.user, login: options.prAuthor ?? 'octocat' } };
  if (options.onPullRequest ?? true) {
    payload.issue.pull_request = { url: `https://api.codehost.example/repos/acme/shop/pulls/${PR}`, html_url: `https://codehost.example/acme/shop/pull/${PR}`, diff_url: null, patch_url: null, merged_at: null };
  }
  payload.repository = { ...payload.repository, name: 'shop', full_name: 'acme/shop', owner: { ...payload.repository.owner, login: 'acme' } };
  payload.installation = { id: options.installationId ?? INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  return payload as Record<string, unknown> & { comment: { id: number } };
}

// MySQL only: comments are a webhook protocol and replies. Their store side runs on both dialects elsewhere: receipts
// and redeliveries in test/integration/jobs/webhook-receipts.test.ts, one job per source key in
// jobs/job-source-keys.test.ts, a thread's jobs newest first in notify/outbox.test.ts, pull-request heads (closed,
// reopened) in webhooks/pull-request-runs.test.ts.
describe('/qa comments on pull requests', () => {
  let api: TestApi | undefined;
  let worker: TestWorker | undefined;
  let codehost: FakeCodehost;
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await codehost?.close();
  });
  const store = useTestStore('mysql');
  beforeAll(async () => {
    codehost = await startFakeCodehost({ appId: APP_ID, publicKey: appKeys.publicKey, botName: BOT });
    codehost.addInstallation(INSTALLATION);
    api = await startTestApi(store(), { codehost: { webhookSecret: SECRET } });
    worker = await startTestWorker(store(), {
      concurrency: 4,
      // No browser: a run fails at once, without retries.
      executablePath: '/nonexistent/chromium',
      retry: { baseDelayMs: 50, factor: 1, maxDelayMs: 50, maxRetries: 0, jitter: 0 },
      codehost: { appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: codehost.url, botName: BOT },
    });
  });

  let organizationId: string;
  let repositoryId: string;
  beforeEach(async () => {
    codehost.comments.splice(0);
    codehost.requests.splice(0);
    const { organization } = await createApiKey(store(), 'acme');
    organizationId = organization.id;
    repositoryId = await insertRepository(store(), organization.id, { providerInstallationId: String(INSTALLATION), owner: 'acme', name: 'shop', baseUrl: 'http://127.0.0.1:9' });
    await connectInstallation(store(), 'codehost', String(INSTALLATION), 'acme');
    codehost.setPull('acme/shop', PR, { headSha: HEAD, author: 'octocat' });
    codehost.setPermission('acme/shop', 'carol', 'write');
    codehost.setPermission('acme/shop', 'mallory', 'read');
  });

  /** Posts a signed delivery and waits until a worker has settled its receipt (completed unless `settled` says). */
  async function deliver(payload: unknown, deliveryId: string = randomUUID(), settled: string[] = ['completed']): Promise<WebhookReceipt> {
    const signed = await signedDelivery(SECRET, 'issue_comment', payload, deliveryId);
    const response = await fetch(`${api!.base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
    return until(async () => {
      const receipt = await store().getRepository(WebhookReceipt).findOneBy({ deliveryId });
      return receipt && settled.includes(receipt.status) ? receipt : undefined;
    });
  }
  /** The jobs in the order they were made: by their first event, kept to the millisecond. */
  async function jobs(): Promise<Job[]> {
    const all = await store().getRepository(Job).find();
    const firsts = await store().getRepository(JobEvent).find({ where: { seq: 0 } });
    const madeAt = new Map(firsts.map((event) => [event.jobId, event.at.getTime()]));
    return all.sort((a, b) => madeAt.get(a.id)! - madeAt.get(b.id)!);
  }
  /** The handler's own replies on the PR; each job's progress comment (the PR sink's, `<!-- qa-job:… -->`) is not one. */
  const prComments = () => codehost.comments.filter((comment) => comment.repo === 'acme/shop' && comment.issueNumber === PR && !comment.body.startsWith('<!-- qa-job:'));
  const permissionCalls = () => codehost.requests.filter((request) => request.path.includes('/collaborators/'));

  it("starts a collaborator's /qa task at the pull request's head, for the organization, reporting to the pull request", async () => {
    const payload = commentPayload({ body: `/qa ${RUNNABLE_TASK}` });

    await deliver(payload);

    const made = await jobs();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      organizationId,
      repositoryId,
      task: RUNNABLE_TASK,
      trigger: 'codehost',
      commitSha: HEAD,
      baseUrl: 'http://127.0.0.1:9',
      sourceKey: `codehost-comment:${payload.comment.id}`,
      channelContext: { channel: 'codehost', provider: 'codehost', installationId: INSTALLATION, owner: 'acme', repo: 'shop', pullNumber: PR, headSha: HEAD, requestedBy: 'carol' },
    });
    expect(await store().getRepository(JobNotification).findOneBy({ jobId: made[0]!.id })).toMatchObject({ channel: 'codehost', threadKey: `codehost:acme/shop#${PR}` });
    expect(permissionCalls().map((request) => request.path)).toEqual(['/repos/acme/shop/collaborators/carol/permission']);
    // The job's own comment and check run are the progress sink's; the handler says nothing when a job starts.
    expect(prComments()).toEqual([]);
  });

  it('takes @<bot> <task> as /qa <task>, whatever the case of the mention', async () => {
    await deliver(commentPayload({ body: `@QA-Bot ${RUNNABLE_TASK}` }));

    expect((await jobs()).map((job) => job.task)).toEqual([RUNNABLE_TASK]);
  });

  it('makes one job of a delivery posted 20 times at once and of a redelivery under a new delivery id', async () => {
    const payload = commentPayload({ body: `/qa ${RUNNABLE_TASK}` });
    const signed = await signedDelivery(SECRET, 'issue_comment', payload, 'the-same-delivery');
    const responses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${api!.base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(202));
    await until(async () => (await store().getRepository(WebhookReceipt).findOneBy({ deliveryId: 'the-same-delivery' }))?.status === 'completed');

    await deliver(payload, 'a-redelivery');

    expect(await jobs()).toHaveLength(1);
    expect(prComments()).toEqual([]);
  });

  it("lets the pull request's author ask without collaborator permission (a fork's author included)", async () => {
    codehost.setPull('acme/shop', PR, { headSha: HEAD, author: 'dora', headRepo: 'dora/shop' });

    await deliver(commentPayload({ body: `/qa ${RUNNABLE_TASK}`, login: 'dora', prAuthor: 'dora' }));

    expect(await jobs()).toEqual([expect.objectContaining({ task: RUNNABLE_TASK, channelContext: expect.objectContaining({ requestedBy: 'dora' }) })]);
    expect(permissionCalls()).toEqual([]);
  });

  it('refuses a commenter without write access politely, once, and starts nothing', async () => {
    const payload = commentPayload({ body: `/qa ${RUNNABLE_TASK}`, login: 'mallory' });

    await deliver(payload);
    await deliver(payload, randomUUID());

    expect(await jobs()).toEqual([]);
    expect(prComments()).toHaveLength(1);
    expect(prComments()[0]!.body).toContain(`<!-- qa-reply:${payload.comment.id} -->`);
    expect(prComments()[0]!.body).toContain('only take `/qa` requests from this pull request’s author and from collaborators with write access');
    expect(prComments()[0]!.body).toContain(ErrorCode.PrCommentNotAllowed);
  });

  it.each([
    ['a comment on a plain issue', { body: `/qa ${RUNNABLE_TASK}`, onPullRequest: false }],
    ["a bot's comment", { body: `/qa ${RUNNABLE_TASK}`, login: 'renovate[bot]', userType: 'Bot' }],
    ["our own bot's comment", { body: `/qa ${RUNNABLE_TASK}`, login: `${BOT}[bot]` }],
    ['an edited comment', { body: `/qa ${RUNNABLE_TASK}`, action: 'edited' }],
    ['a deleted comment', { body: `/qa ${RUNNABLE_TASK}`, action: 'deleted' }],
    ['a comment that only mentions /qa later', { body: `Looks good; I will try /qa ${RUNNABLE_TASK} later` }],
    ['a quoted command', { body: `> /qa ${RUNNABLE_TASK}\n\nWhy did this fail?` }],
    ['a word that only starts like the command', { body: `/qatest ${RUNNABLE_TASK}` }],
  ])('ignores %s: no job, no reply, the receipt completed', async (_what, options: CommentOptions) => {
    await deliver(commentPayload(options));

    expect(await jobs()).toEqual([]);
    expect(prComments()).toEqual([]);
    expect(codehost.requests).toEqual([]);
  });

  it('completes without effect a /qa comment on a repository of an installation no administrator connected', async () => {
    await deliver(commentPayload({ body: `/qa ${RUNNABLE_TASK}`, installationId: 5 }));

    expect(await jobs()).toEqual([]);
    expect(codehost.requests).toEqual([]);
  });

  it('answers the questions of the latest job with numbered answers: the child job carries them', async () => {
    await deliver(commentPayload({ body: `/qa ${REVIEW_TASK}` }));
    const [asking] = await jobs();
    expect(asking).toMatchObject({ status: 'review_required', resolution: expect.objectContaining({ questions: [expect.any(String), expect.any(String)] }) });
    const reply = commentPayload({ body: '/qa answer\n2) yes, it is disposable test data\r\n1. yes, the demo user; restore the plan afterwards' });

    await deliver(reply);
    await deliver(reply, randomUUID());

    const after = await jobs();
    expect(after).toHaveLength(2);
    const child = after.find((job) => job.parentJobId === asking!.id)!;
    expect(child).toMatchObject({ trigger: 'codehost', commitSha: HEAD, sourceKey: `codehost-comment:${reply.comment.id}`, channelContext: asking!.channelContext });
    expect(child.task).toContain('yes, the demo user; restore the plan afterwards');
    expect(child.task!.indexOf('yes, the demo user')).toBeLessThan(child.task!.indexOf('yes, it is disposable test data'));
    expect(prComments()).toEqual([]);
  });

  it('answers a wrong count of answers with a coded reply that repeats the questions, and starts nothing', async () => {
    await deliver(commentPayload({ body: `/qa ${REVIEW_TASK}` }));

    await deliver(commentPayload({ body: '/qa answer yes' }));

    expect(await jobs()).toHaveLength(1);
    expect(prComments()).toHaveLength(1);
    const body = prComments()[0]!.body;
    expect(body).toContain('There are 2 questions and this reply has 1 answer line');
    expect(body).toContain(ErrorCode.ClarificationAnswerCount);
    expect(body).toContain('1. `Should the run really change this account');
  });

  it('answers a question numbered twice with pr_comment.answer_invalid, and a later right answer still counts', async () => {
    await deliver(commentPayload({ body: `/qa ${REVIEW_TASK}` }));

    await deliver(commentPayload({ body: '/qa answer\n1. yes\n1. no' }));
    await deliver(commentPayload({ body: '/qa answer\n1. yes\n2. yes' }));

    expect(prComments().map((comment) => comment.body)).toEqual([expect.stringContaining(ErrorCode.PrCommentAnswerInvalid)]);
    expect(prComments()[0]!.body).toContain('Question 1 is answered twice.');
    expect(await jobs()).toHaveLength(2);
  });

  it('says there is nothing to answer when no job of the pull request waits for answers', async () => {
    await deliver(commentPayload({ body: '/qa answer 1. yes' }));

    expect(await jobs()).toEqual([]);
    expect(prComments().map((comment) => comment.body)).toEqual([expect.stringContaining(ErrorCode.PrCommentNothingToAnswer)]);
  });

  it('replays the active check a fragment of its task names, and lists the candidates of an ambiguous fragment', async () => {
    const home = await insertCheck(store(), organizationId, repositoryId, 'active', 'Check the home page');
    await insertCheck(store(), organizationId, repositoryId, 'active', 'Check the pricing page lists three plans');

    await deliver(commentPayload({ body: '/qa replay HOME page' }));
    await deliver(commentPayload({ body: '/qa replay page' }));

    expect(await jobs()).toEqual([expect.objectContaining({ checkId: home, task: null, commitSha: HEAD, trigger: 'codehost' })]);
    expect(prComments()).toHaveLength(1);
    expect(prComments()[0]!.body).toContain(ErrorCode.PrCommentCheckAmbiguous);
    expect(prComments()[0]!.body).toContain(`/qa replay ${home}`);
  });

  it('says a check that never passed cannot be replayed', async () => {
    await insertCheck(store(), organizationId, repositoryId, 'draft', 'Check the home page');

    await deliver(commentPayload({ body: '/qa replay home page' }));

    expect(await jobs()).toEqual([]);
    expect(prComments().map((comment) => comment.body)).toEqual([expect.stringContaining(ErrorCode.PrCommentCheckNotReplayable)]);
  });

  it('says so when an operator paused AI execution, while a replay of a compiled check still starts', async () => {
    await setCapabilityPaused(store(), 'ai', true, organizationId);
    const check = await insertCheck(store(), organizationId, repositoryId, 'active', 'Check the home page');

    await deliver(commentPayload({ body: `/qa ${RUNNABLE_TASK}` }));
    await deliver(commentPayload({ body: `/qa replay ${check}` }));

    expect(await jobs()).toEqual([expect.objectContaining({ checkId: check, task: null })]);
    expect(prComments().map((comment) => comment.body)).toEqual([expect.stringMatching(/^<!-- qa-reply:\d+ -->\nSorry, I couldn’t do that: .*paused.*execution\.paused/s)]);
  });

  it("never replays another organization's check by its id, and answers as for an id nobody has", async () => {
    const { organization: other } = await createApiKey(store(), 'globex');
    const otherRepository = await insertRepository(store(), other.id, { owner: 'globex', name: 'shop' });
    const theirs = await insertCheck(store(), other.id, otherRepository, 'active', 'Check the home page');

    await deliver(commentPayload({ body: `/qa replay ${theirs}` }));
    await deliver(commentPayload({ body: `/qa replay ${randomUUID()}` }));

    expect(await jobs()).toEqual([]);
    const bodies = prComments().map((comment) => comment.body.replace(/[0-9a-f-]{36}/g, '<id>').replace(/qa-reply:\d+/, 'qa-reply:<n>'));
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).toContain(ErrorCode.PrCommentCheckUnknown);
  });

  it('reruns what the latest job ran at the current head: its task, or its check', async () => {
    await deliver(commentPayload({ body: `/qa ${RUNNABLE_TASK}` }));
    const newHead = 'b'.repeat(40);
    codehost.setPull('acme/shop', PR, { headSha: newHead });

    await deliver(commentPayload({ body: '/qa rerun' }));
    const check = await insertCheck(store(), organizationId, repositoryId, 'active', 'Check the home page');
    await deliver(commentPayload({ body: `/qa replay ${check}` }));
    await deliver(commentPayload({ body: '/qa  RERUN ' }));

    const made = await jobs();
    expect(made.map(({ task, checkId, commitSha }) => ({ task, replayed: checkId === check && task === null, commitSha }))).toEqual([
      { task: RUNNABLE_TASK, replayed: false, commitSha: HEAD },
      { task: RUNNABLE_TASK, replayed: false, commitSha: newHead },
      { task: null, replayed: true, commitSha: newHead },
      { task: null, replayed: true, commitSha: newHead },
    ]);
    expect(prComments()).toEqual([]);
  });

  it('says there is nothing to rerun on a pull request with no job, and answers help', async () => {
    await deliver(commentPayload({ body: '/qa rerun' }));
    await deliver(commentPayload({ body: '/qa help' }));

    expect(await jobs()).toEqual([]);
    expect(prComments().map((comment) => comment.body)).toEqual([expect.stringContaining(ErrorCode.PrCommentNothingToRerun), expect.stringContaining('/qa replay <check id or words of its task>')]);
  });

  it('starts nothing on a closed or merged pull request (a task, a replay, a rerun, an answer), says so once per comment, and starts again once it is reopened', async () => {
    await deliver(commentPayload({ body: `/qa ${REVIEW_TASK}` }));
    const check = await insertCheck(store(), organizationId, repositoryId, 'active', 'Check the home page');
    codehost.setPull('acme/shop', PR, { headSha: HEAD, state: 'closed' });
    const task = commentPayload({ body: `/qa ${RUNNABLE_TASK}` });

    await deliver(task);
    await deliver(task, randomUUID());
    await deliver(commentPayload({ body: `/qa replay ${check}` }));
    await deliver(commentPayload({ body: '/qa rerun' }));
    await deliver(commentPayload({ body: '/qa answer\n1. yes\n2. yes' }));
    codehost.setPull('acme/shop', PR, { headSha: HEAD, state: 'closed', merged: true });
    await deliver(commentPayload({ body: `/qa ${RUNNABLE_TASK}` }));
    await deliver(commentPayload({ body: '/qa help' }));

    expect(await jobs()).toHaveLength(1);
    const closed = 'This pull request is closed, so I start nothing on it.';
    expect(prComments().map((comment) => comment.body.split('\n')[1])).toEqual([
      expect.stringContaining(closed),
      expect.stringContaining(closed),
      expect.stringContaining(closed),
      expect.stringContaining(closed),
      expect.stringContaining('This pull request was merged, so I start nothing on it.'),
      expect.stringContaining('What I can do on this pull request'),
    ]);
    expect(prComments().slice(0, 5).every((comment) => comment.body.includes(ErrorCode.PrCommentPullRequestClosed))).toBe(true);

    codehost.setPull('acme/shop', PR, { headSha: HEAD, state: 'open' });
    await deliver(commentPayload({ body: '/qa answer\n1. yes\n2. yes' }));
    await deliver(commentPayload({ body: `/qa replay ${check}` }));
    expect((await jobs()).map((job) => job.checkId === check || job.parentJobId !== null)).toEqual([false, true, true]);
  });

  it('reads malformed text: lone surrogates and control characters are dropped from the task, a 100 KB task is refused in a short reply', async () => {
    await deliver(commentPayload({ body: `/qa\u0000 Check that the \ud800pricing page\u0007 lists three plans\u202e` }));
    await deliver(commentPayload({ body: `/qa ${'<img src=x onerror=alert(1)> @everyone '.repeat(2_600)}` }));

    const made = await jobs();
    expect(made.map((job) => job.task)).toEqual(['Check that the \ufffdpricing page lists three plans']);
    expect(prComments()).toHaveLength(1);
    const reply = prComments()[0]!.body;
    expect(reply).toContain(ErrorCode.PrCommentInvalid);
    expect(reply).toMatch(/That task is \d{6} characters long; the most is 4000/);
    expect(reply.length).toBeLessThan(600);
    expect(reply).not.toContain('@everyone');
  });

  it.each([
    [502, /The code host answered 502/],
    [429, /The code host is rate limiting us/],
  ])('fails the receipt on a %i from the code host, so that it is retried; a redelivery then starts the job once', async (status, error) => {
    const payload = commentPayload({ body: `/qa ${RUNNABLE_TASK}` });
    codehost.failNext(10, status, 1);

    const failed = await deliver(payload, randomUUID(), ['failed', 'dead']);
    expect(failed.lastError).toMatch(error);
    expect(await jobs()).toEqual([]);
    codehost.failNext(0, status);

    await deliver(payload);
    expect(await jobs()).toHaveLength(1);
  });
});
