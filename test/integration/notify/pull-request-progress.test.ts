/**
 * The notify-delivery handler through the pull-request sink as compose builds it (the real @octokit/rest client,
 * installation tokens, the connection check on the store) against the fake code host: one comment and one check run
 * per job, edited to the final state; failures retried or stopped as the code host's answer says; a crash after the
 * code host took a post recovers that comment and check run instead of posting twice.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createCodehostClient, type CodehostClient } from '../../../src/codehost/codehost-client.js';
import { composeCodehostSink } from '../../../src/compose/codehost-sink.js';
import { codehostPrincipal, type Principal } from '../../../src/core/principal.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { readJobForNotification } from '../../../src/jobs/job-for-notification.js';
import { createNotificationOutbox, type NotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import { PullRequestSink } from '../../../src/notify/codehost/pull-request-sink.js';
import { createProgressDelivery, type DeliveryOutcome } from '../../../src/notify/deliver-progress.js';
import { ReportedInstallation } from '../../../src/store/entities/reported-installation.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { startFakeCodehost, type FakeCodehost } from '../../fakes/codehost-api.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { advance, jobServiceOn, REVIEW_TASK } from './notify-fixtures.js';
import {
  APP_ID,
  APP_KEYS,
  BOT_NAME,
  CHECK_RUN_LISTS,
  CHECK_RUN_POSTS,
  codehostSettings,
  COMMENT_POSTS,
  HEAD_SHA,
  INSTALLATION,
  postedFor,
  pullRequestContext,
  pullRequestJobInput,
  requestsTo,
  summaryOf,
  until,
} from './pull-request-fixtures.js';

const COMMENT_LISTS = /^\/repos\/acme\/shop\/issues\/7\/comments$/;

// MySQL only: this is the code host's side (comments, check runs, their recovery). The delivery's store side, the
// outbox row and the job read for it, runs on both dialects in notify/deliver-progress.test.ts and
// notify/outbox.test.ts; connected installations in repos/codehost-repositories.test.ts.
describe('progress on a pull request', () => {
  const store = useTestStore('mysql');
  let fake: FakeCodehost;
  let client: CodehostClient;
  let principal: Principal;
  let repositoryId: string;
  let clock: Date;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    clock = new Date();
    fake = await startFakeCodehost({ appId: APP_ID, publicKey: APP_KEYS.publicKey, botName: BOT_NAME });
    fake.addInstallation(INSTALLATION);
    client = createCodehostClient({ appId: APP_ID, privateKey: APP_KEYS.privateKey, apiUrl: fake.url });
    const { organization } = await createApiKey(store(), 'acme');
    repositoryId = await insertRepository(store(), organization.id);
    await connectInstallation(store(), 'codehost', String(INSTALLATION), 'acme');
    principal = codehostPrincipal(organization.id, INSTALLATION, 'octocat');
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await fake.close();
  });

  const delivery = (outbox: Pick<NotificationOutbox, 'state' | 'markPosting' | 'recordDelivery' | 'recordRecovered' | 'recordFailure'> = createNotificationOutbox(store()), timeoutMs?: number) =>
    createProgressDelivery({
      outbox,
      read: (jobId) => readJobForNotification(store(), jobId),
      sinks: { codehost: composeCodehostSink({ config: codehostSettings(fake), dataSource: store(), client, timeoutMs }) },
      settings: { minIntervalMs: 1_500, publicBaseUrl: 'https://qa.example.com' },
      logger: silentLogger(),
      now: () => clock,
    });
  const createJob = async (as: Principal = principal, context = pullRequestContext()) => {
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    return (await built.jobs.create(as, pullRequestJobInput(repositoryId, context))).jobId;
  };
  const state = (jobId: string) => createNotificationOutbox(store()).state(jobId);
  const wait = (outcome: DeliveryOutcome) => (outcome === 'done' ? 'done' : outcome.runAgainAt.getTime() - clock.getTime());
  const tick = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  const finish = async (jobId: string, outcome: 'job.passed' | 'job.failed' = 'job.passed') => {
    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'step.started', { index: 0, description: 'Open /pricing' });
    await advance(store(), jobId, 'step.passed', { index: 0 });
    await advance(store(), jobId, outcome);
  };

  it('posts one marked comment and one queued check run on the head commit, then edits both to the final state', async () => {
    const jobId = await createJob();
    await delivery().deliver(jobId);
    const posted = postedFor(fake, jobId);
    expect(posted.comments).toHaveLength(1);
    expect(posted.comments[0]).toMatchObject({ repo: 'acme/shop', issueNumber: 7, user: { login: 'qa-bot[bot]', type: 'Bot' } });
    expect(posted.comments[0]!.body).toContain('QA: Queued');
    expect(posted.checkRuns).toEqual([
      expect.objectContaining({ name: 'QA: Check that the pricing page lists three plans', head_sha: HEAD_SHA, status: 'queued', details_url: `https://qa.example.com/jobs/${jobId}` }),
    ]);
    expect((await state(jobId))!.messageHandle).toBe(`comment=${posted.comments[0]!.id};check=${posted.checkRuns[0]!.id}`);

    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'step.started', { index: 0, description: 'Open /pricing' });
    tick(1_500);
    await delivery().deliver(jobId);
    expect(postedFor(fake, jobId).checkRuns[0]).toMatchObject({ status: 'in_progress', conclusion: null });
    expect(postedFor(fake, jobId).comments[0]!.body).toMatch(/\nStep 1 of \d+: Open \/pricing\n/);

    await advance(store(), jobId, 'step.passed', { index: 0 });
    await advance(store(), jobId, 'job.passed');
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    const final = postedFor(fake, jobId);
    expect(final.comments).toHaveLength(1);
    expect(final.comments[0]).toMatchObject({ edits: 2 });
    expect(final.comments[0]!.body).toContain('QA: Passed');
    expect(final.checkRuns).toHaveLength(1);
    expect(final.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'success', updates: 2 });
    expect(summaryOf(final.checkRuns[0])).toContain(`[Job ${jobId.slice(0, 8)}](https://qa.example.com/jobs/${jobId})`);
    expect(await state(jobId)).toMatchObject({ finalDelivered: true, lastError: null });
  });

  it('a job with questions completes its check run as neutral at once, and its comment says how to answer with /qa answer', async () => {
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    const created = await built.jobs.create(principal, pullRequestJobInput(repositoryId, pullRequestContext({ requestedBy: 'octocat' }), { naturalLanguageTask: REVIEW_TASK }));
    expect(created.kind).toBe('review_required');
    expect(await delivery().deliver(created.jobId)).toBe('done');
    const posted = postedFor(fake, created.jobId);
    expect(posted.checkRuns).toEqual([expect.objectContaining({ status: 'completed', conclusion: 'neutral' })]);
    expect(posted.comments[0]!.body).toMatch(/#### Questions before I run this\n1\. Should the run really /);
    expect(posted.comments[0]!.body).toContain('```\n/qa answer\n1. …\n```');
    expect(posted.comments[0]!.body).toContain('asked by @octocat');
    expect(summaryOf(posted.checkRuns[0])).toContain('/qa answer');
    expect(await state(created.jobId)).toMatchObject({ finalDelivered: true });
  });

  it('a cancelled job completes its check run as cancelled', async () => {
    const jobId = await createJob();
    await delivery().deliver(jobId);
    await advance(store(), jobId, 'job.cancelled');
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(postedFor(fake, jobId).checkRuns).toEqual([expect.objectContaining({ status: 'completed', conclusion: 'cancelled', updates: 1 })]);
    expect(postedFor(fake, jobId).comments[0]!.body).toContain('### 🚫 QA: Cancelled');
  });

  it('annotates the files a failed check covers, when a coverage source is given (none is composed until coverage links exist)', async () => {
    const jobId = await createJob();
    await finish(jobId, 'job.failed');
    const covered: string[] = [];
    const sink = new PullRequestSink({
      client,
      refusal: async () => null,
      coveredFiles: async (target, forJob) => {
        covered.push(`${target.context.owner}/${target.context.repo}:${forJob}`);
        return ['src/pages/pricing.tsx', 'src/components/plan-card.tsx'];
      },
    });
    const outcome = await createProgressDelivery({
      outbox: createNotificationOutbox(store()),
      read: (id) => readJobForNotification(store(), id),
      sinks: { codehost: sink },
      settings: { minIntervalMs: 1_500, publicBaseUrl: 'https://qa.example.com' },
      logger: silentLogger(),
      now: () => clock,
    }).deliver(jobId);
    expect(outcome).toBe('done');
    expect(covered).toEqual([`acme/shop:${jobId}`]);
    const output = postedFor(fake, jobId).checkRuns[0]!.output as { annotations?: { path: string; annotation_level: string }[] };
    expect(output.annotations?.map((annotation) => [annotation.path, annotation.annotation_level])).toEqual([
      ['src/pages/pricing.tsx', 'failure'],
      ['src/components/plan-card.tsx', 'failure'],
    ]);
  });

  it('delivers the final state once: later deliveries send nothing', async () => {
    const jobId = await createJob();
    await finish(jobId, 'job.failed');
    expect(await delivery().deliver(jobId)).toBe('done');
    const sent = fake.requests.length;
    tick(60_000);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(fake.requests).toHaveLength(sent);
    expect(postedFor(fake, jobId).checkRuns).toEqual([expect.objectContaining({ status: 'completed', conclusion: 'failure', updates: 0 })]);
  });

  it('waits out a 429 for its retry-after and a 5xx with back-off, then posts once', async () => {
    const jobId = await createJob();
    fake.failNext(1, 429, 7, { method: 'POST', path: COMMENT_POSTS });
    expect(wait(await delivery().deliver(jobId))).toBe(7_000);
    fake.failNext(1, 503, undefined, { method: 'POST', path: COMMENT_POSTS });
    expect(wait(await delivery().deliver(jobId))).toBe(4_000);
    expect(await state(jobId)).toMatchObject({ attempts: 2, lastError: expect.stringMatching(/^notify\.delivery_retryable: The code host answered 503/) });
    expect(wait(await delivery().deliver(jobId))).toBe(1_500);
    expect(requestsTo(fake, 'POST', COMMENT_POSTS).map((request) => request.status)).toEqual([429, 503, 201]);
    // Each failed post may have gone through: the PR's comments were looked at before posting again.
    expect(requestsTo(fake, 'GET', COMMENT_LISTS)).toHaveLength(2);
    expect(postedFor(fake, jobId).comments).toHaveLength(1);
    expect(postedFor(fake, jobId).checkRuns).toHaveLength(1);
    expect(await state(jobId)).toMatchObject({ attempts: 0, lastError: null });
  });

  it('after a worker dies between the code host\'s answer and the commit, recovers the comment and check run and edits them', async () => {
    const jobId = await createJob();
    const real = createNotificationOutbox(store());
    await expect(delivery({ ...real, recordDelivery: () => Promise.reject(new Error('worker killed')) }).deliver(jobId)).rejects.toThrow('worker killed');
    const [comment] = postedFor(fake, jobId).comments;
    const [checkRun] = postedFor(fake, jobId).checkRuns;
    expect(await state(jobId)).toMatchObject({ messageHandle: null, postingSince: expect.any(Date) });

    await finish(jobId);
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(requestsTo(fake, 'POST', COMMENT_POSTS)).toHaveLength(1);
    expect(requestsTo(fake, 'POST', CHECK_RUN_POSTS)).toHaveLength(1);
    expect(postedFor(fake, jobId)).toEqual({ comments: [expect.objectContaining({ id: comment!.id, edits: 1 })], checkRuns: [expect.objectContaining({ id: checkRun!.id, conclusion: 'success' })] });
    expect((await state(jobId))!.messageHandle).toBe(`comment=${comment!.id};check=${checkRun!.id}`);
  });

  it('after the comment went out and the check run did not, recovers the comment and creates the check run once', async () => {
    const jobId = await createJob();
    fake.failNext(1, 502, undefined, { method: 'POST', path: CHECK_RUN_POSTS });
    expect(wait(await delivery().deliver(jobId))).toBe(2_000);
    expect(postedFor(fake, jobId)).toMatchObject({ comments: [expect.anything()], checkRuns: [] });
    expect(requestsTo(fake, 'POST', CHECK_RUN_POSTS).map((request) => request.status)).toEqual([502]);

    tick(2_000);
    expect(wait(await delivery().deliver(jobId))).toBe(1_500);
    const posted = postedFor(fake, jobId);
    expect(posted.comments).toEqual([expect.objectContaining({ edits: 1 })]);
    expect(posted.checkRuns).toEqual([expect.objectContaining({ status: 'queued' })]);
    expect(requestsTo(fake, 'POST', COMMENT_POSTS)).toHaveLength(1);
    expect((await state(jobId))!.messageHandle).toBe(`comment=${posted.comments[0]!.id};check=${posted.checkRuns[0]!.id}`);
  });

  it('gives up on a stalled answer and retries; the comment the code host made meanwhile is found, not posted again', async () => {
    const jobId = await createJob();
    fake.delayNext(1, 1_000, { method: 'POST', path: COMMENT_POSTS });
    expect(wait(await delivery(undefined, 200).deliver(jobId))).toBe(2_000);
    expect((await state(jobId))!.lastError).toMatch(/^notify\.delivery_retryable: The code host answered 500 \(post the PR comment\)/);
    // The slow code host took the post all the same.
    await until(() => fake.comments.length === 1);
    tick(2_000);
    expect(wait(await delivery(undefined, 200).deliver(jobId))).toBe(1_500);
    expect(postedFor(fake, jobId)).toEqual({ comments: [expect.objectContaining({ edits: 1 })], checkRuns: [expect.objectContaining({ status: 'queued' })] });
    expect(fake.comments).toHaveLength(1);
  });

  it('recovers only the bot\'s comment and the app\'s check run, past the first page, leaving a forged marker alone', async () => {
    const jobId = await createJob();
    const forged = fake.addComment('acme/shop', 7, `<!-- qa-job:${jobId} --> a person typed the marker`);
    for (let i = 0; i < 150; i += 1) fake.addComment('acme/shop', 7, `comment ${i}`);
    fake.addComment('acme/shop', 7, `<!-- qa-job:${jobId} --> another bot`, { login: 'other-app[bot]', type: 'Bot' });
    const foreign = fake.addCheckRun('acme/shop', { name: 'QA: lookalike', head_sha: HEAD_SHA, external_id: jobId, app_id: 99 });
    const real = createNotificationOutbox(store());
    await expect(delivery({ ...real, recordDelivery: () => Promise.reject(new Error('worker killed')) }).deliver(jobId)).rejects.toThrow('worker killed');

    await finish(jobId);
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(requestsTo(fake, 'GET', COMMENT_LISTS).map((request) => new URL(request.path, fake.url).searchParams.get('page') ?? '1')).toEqual(['1', '2']);
    expect(requestsTo(fake, 'GET', CHECK_RUN_LISTS)[0]!.path).toContain(`app_id=${APP_ID}`);
    expect(postedFor(fake, jobId).comments).toEqual([expect.objectContaining({ edits: 1 })]);
    expect(postedFor(fake, jobId).checkRuns).toEqual([expect.objectContaining({ conclusion: 'success' })]);
    expect(forged).toMatchObject({ edits: 0 });
    expect(foreign).toMatchObject({ status: 'queued', updates: 0 });
  });

  it('stops for good when the comment was deleted on the pull request', async () => {
    const jobId = await createJob();
    await delivery().deliver(jobId);
    fake.deleteComment(postedFor(fake, jobId).comments[0]!.id);
    await finish(jobId);
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(await state(jobId)).toMatchObject({ finalDelivered: false, lastError: 'notify.delivery_refused: The code host refused the request (edit the PR comment): 404' });
  });

  it('posts nothing through an installation that is not connected to the job\'s organization', async () => {
    const { organization: other } = await createApiKey(store(), 'globex');
    const otherRepository = await insertRepository(store(), other.id);
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    // Globex's job names acme's installation 42.
    const elsewhere = (await built.jobs.create(codehostPrincipal(other.id, INSTALLATION, null), pullRequestJobInput(otherRepository, pullRequestContext()))).jobId;
    expect(await delivery().deliver(elsewhere)).toBe('done');
    expect((await state(elsewhere))!.lastError).toBe("notify.delivery_refused: Not posting on acme/shop#7: installation 42 is connected to another organization than the job's");

    const unknown = await createJob(principal, pullRequestContext({ installationId: 77 }));
    expect(await delivery().deliver(unknown)).toBe('done');
    expect((await state(unknown))!.lastError).toBe('notify.delivery_refused: Not posting on acme/shop#7: installation 77 is not connected to an organization (qa installations connect)');
    expect(fake.requests).toHaveLength(0);
  });

  it('stops posting once the code host reported the installation suspended', async () => {
    const jobId = await createJob();
    await delivery().deliver(jobId);
    const now = new Date();
    await store().getRepository(ReportedInstallation).insert({
      provider: 'codehost',
      providerInstallationId: String(INSTALLATION),
      accountLogin: 'acme',
      accountType: 'Organization',
      repositorySelection: 'selected',
      status: 'suspended',
      reportedAt: now,
      updatedAt: now,
    });
    const sent = fake.requests.length;
    await finish(jobId);
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect((await state(jobId))!.lastError).toBe('notify.delivery_refused: Not posting on acme/shop#7: installation 42 is suspended');
    expect(fake.requests).toHaveLength(sent);
  });
});
