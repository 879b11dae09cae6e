import { afterEach, beforeEach, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/core/principal.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { readJobForNotification } from '../../../src/jobs/job-for-notification.js';
import { createNotificationOutbox, type NotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import { backoffMs, createProgressDelivery, idleWaitMs, type DeliveryOutcome, type DeliverySettings } from '../../../src/notify/deliver-progress.js';
import { DeliveryFailed } from '../../../src/notify/errors.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { advance, chatContext, chatInput, jobServiceOn, REVIEW_TASK } from './notify-fixtures.js';
import { RecordingSink } from './recording-sink.js';

const settings: DeliverySettings = { minIntervalMs: 1_500, publicBaseUrl: 'https://qa.example.com', maxAttempts: 5 };

/** The notify-delivery handler against a channel kept in memory, on a clock the test moves. */
forEachDialect('progress delivery', (dialect) => {
  const store = useTestStore(dialect);
  let clock: Date;
  let sink: RecordingSink;
  let principal: Principal;
  let repositoryId: string;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    // The real time: the clock moves on from when the events are written.
    clock = new Date();
    sink = new RecordingSink();
    const issued = await createApiKey(store(), 'acme');
    principal = issued.principal;
    repositoryId = await insertRepository(store(), issued.organization.id);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const tick = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  /** A worker's delivery (each call of this is a fresh process: nothing kept in memory between them). */
  const delivery = (outbox: Pick<NotificationOutbox, 'state' | 'markPosting' | 'recordDelivery' | 'recordRecovered' | 'recordFailure'> = createNotificationOutbox(store()), overrides: Partial<DeliverySettings> = {}) =>
    createProgressDelivery({ outbox, read: (jobId) => readJobForNotification(store(), jobId), sinks: { chat: sink }, settings: { ...settings, ...overrides }, logger: silentLogger(), now: () => clock });
  const chatJob = async () => {
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    return (await built.jobs.create(principal, chatInput(repositoryId, chatContext()))).jobId;
  };
  const state = (jobId: string) => createNotificationOutbox(store()).state(jobId);
  const at = (outcome: DeliveryOutcome) => (outcome === 'done' ? 'done' : outcome.runAgainAt.getTime() - clock.getTime());

  it('posts the queued job once, then waits out the interval before it edits', async () => {
    const jobId = await chatJob();
    expect(at(await delivery().deliver(jobId))).toBe(1_500);
    expect(sink.posts.map((view) => view.status)).toEqual(['queued']);
    expect(sink.messages.get('m1')?.target).toEqual({ organizationId: principal.organizationId, context: chatContext() });
    await advance(store(), jobId, 'job.started');
    tick(500);
    // Too soon: no edit, and the next try is when the interval is over.
    expect(at(await delivery().deliver(jobId))).toBe(1_000);
    expect(sink.sent).toHaveLength(1);
    tick(1_000);
    expect(at(await delivery().deliver(jobId))).toBe(1_500);
    expect(sink.edits.map((view) => view.status)).toEqual(['running']);
    // job.created, job.queued, job.started: the edit shows index 2.
    expect(await state(jobId)).toMatchObject({ messageHandle: 'm1', deliveredSeq: 2, finalDelivered: false });
  });

  it('looks at a job that stays quiet less and less often, up to the idle cap, without sending anything', async () => {
    const jobId = await chatJob();
    await delivery().deliver(jobId);
    tick(1_500);
    expect(at(await delivery().deliver(jobId))).toBe(1_500);
    tick(60_000);
    expect(at(await delivery().deliver(jobId))).toBe(5_000);
    expect(sink.sent).toHaveLength(1);
    expect([idleWaitMs(0, 1_500, 5_000), idleWaitMs(10_000, 1_500, 5_000), idleWaitMs(600_000, 1_500, 5_000)]).toEqual([1_500, 2_500, 5_000]);
    // A new event is shown at the next look.
    await advance(store(), jobId, 'job.started');
    tick(5_000);
    expect(at(await delivery().deliver(jobId))).toBe(1_500);
    expect(sink.edits.map((view) => view.status)).toEqual(['running']);
  });

  it('throttles: many events make a few edits, and the final state is always delivered', async () => {
    const jobId = await chatJob();
    let due = clock.getTime();
    let outcome: DeliveryOutcome = { runAgainAt: clock };
    // The queue runs the delivery whenever it is due, while the run writes an event every 100 ms for 3 s.
    const runDueDelivery = async () => {
      if (outcome !== 'done' && clock.getTime() >= due) {
        outcome = await delivery().deliver(jobId);
        if (outcome !== 'done') due = outcome.runAgainAt.getTime();
      }
    };
    await advance(store(), jobId, 'job.started');
    for (let index = 0; index < 15; index += 1) {
      await advance(store(), jobId, 'step.started', { index, description: `Step ${index + 1}` });
      tick(100);
      await runDueDelivery();
      await advance(store(), jobId, 'step.passed', { index });
      tick(100);
      await runDueDelivery();
    }
    await advance(store(), jobId, 'job.passed');
    // (A cast: the compiler cannot see that runDueDelivery assigns `outcome`.)
    while ((outcome as DeliveryOutcome) !== 'done') {
      tick(100);
      await runDueDelivery();
    }
    // 3 s of events at one edit per 1.5 s: the post and two or three edits, not thirty.
    expect(sink.sent.length).toBeGreaterThanOrEqual(3);
    expect(sink.sent.length).toBeLessThanOrEqual(5);
    expect(sink.posts).toHaveLength(1);
    expect(sink.sent.at(-1)).toMatchObject({ status: 'passed', finished: true, step: { number: 15, state: 'passed' } });
    const final = await state(jobId);
    expect(final).toMatchObject({ finalDelivered: true, deliveredSeq: sink.sent.at(-1)!.lastSeq });
  });

  it('delivers the final state once: a later run of the delivery (another worker) sends nothing', async () => {
    const jobId = await chatJob();
    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'job.cancelled');
    expect(await delivery().deliver(jobId)).toBe('done');
    tick(60_000);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(sink.sent.map((view) => view.status)).toEqual(['cancelled']);
  });

  it('shows a review_required job\'s questions as final, then once more when they are answered or the job is cancelled', async () => {
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    const asked = await built.jobs.create(principal, chatInput(repositoryId, chatContext(), REVIEW_TASK));
    expect(await delivery().deliver(asked.jobId)).toBe('done');
    expect(sink.posts[0]).toMatchObject({ status: 'review_required', finished: true, answer: 'yes_no' });
    const child = await built.jobs.answer(principal, asked.jobId, ['yes']);
    expect(await state(asked.jobId)).toMatchObject({ finalDelivered: false });
    // The throttle holds for the reopened message too.
    expect(at(await delivery().deliver(asked.jobId))).toBe(1_500);
    tick(1_500);
    expect(await delivery().deliver(asked.jobId)).toBe('done');
    expect(sink.edits).toEqual([expect.objectContaining({ jobId: asked.jobId, childJobId: child.jobId, answer: null })]);
    expect(await state(asked.jobId)).toMatchObject({ finalDelivered: true, messageHandle: 'm1' });

    const dropped = await built.jobs.create(principal, chatInput(repositoryId, chatContext(), REVIEW_TASK));
    await delivery().deliver(dropped.jobId);
    await built.jobs.cancel(principal, dropped.jobId);
    tick(1_500);
    expect(await delivery().deliver(dropped.jobId)).toBe('done');
    expect(sink.edits.at(-1)).toMatchObject({ jobId: dropped.jobId, status: 'cancelled', questions: [] });
  });

  it('after a crash between the post and its commit, finds the posted message instead of posting again', async () => {
    const jobId = await chatJob();
    const real = createNotificationOutbox(store());
    // The worker dies once the channel took the post, before the delivery is recorded.
    const dying = { ...real, recordDelivery: async () => Promise.reject(new Error('worker killed')) };
    await expect(delivery(dying).deliver(jobId)).rejects.toThrow('worker killed');
    expect(await state(jobId)).toMatchObject({ messageHandle: null, postingSince: clock, deliveredSeq: -1 });
    tick(2_000);
    await advance(store(), jobId, 'job.started');
    expect(at(await delivery().deliver(jobId))).toBe(1_500);
    expect(sink.recoveries).toEqual([jobId]);
    expect(sink.posts).toHaveLength(1);
    expect(sink.edits.map((view) => view.status)).toEqual(['running']);
    expect(await state(jobId)).toMatchObject({ messageHandle: 'm1', postingSince: null });
  });

  it('retries a retryable failure after Retry-After, else with growing back-off capped at 5 minutes; a success clears it', async () => {
    const jobId = await chatJob();
    sink.failNext(new DeliveryFailed('Slack rate limited the call', { retryable: true, retryAfterMs: 3_000 }));
    expect(at(await delivery().deliver(jobId))).toBe(3_000);
    expect(await state(jobId)).toMatchObject({ attempts: 1, lastError: 'notify.delivery_retryable: Slack rate limited the call', messageHandle: null });
    // Anything a sink throws that is not a DeliveryFailed (a bug, a dropped socket) is retried too.
    sink.failNext(new Error('socket hang up'));
    expect(at(await delivery().deliver(jobId))).toBe(4_000);
    sink.failNext(new DeliveryFailed('Slack answered HTTP 503', { retryable: true }));
    expect(at(await delivery().deliver(jobId))).toBe(8_000);
    expect(backoffMs(20, 2_000, 300_000)).toBe(300_000);
    expect(at(await delivery().deliver(jobId))).toBe(1_500);
    expect(sink.posts).toHaveLength(1);
    expect(await state(jobId)).toMatchObject({ attempts: 0, lastError: null, messageHandle: 'm1' });
  });

  it('stops at a permanent failure, and gives up after too many retryable ones, with last_error saying why; the job is untouched', async () => {
    const refused = await chatJob();
    sink.failNext(new DeliveryFailed('Slack refused the call: channel_not_found', { retryable: false }));
    expect(await delivery().deliver(refused)).toBe('done');
    expect(await state(refused)).toMatchObject({ attempts: 1, finalDelivered: false, lastError: 'notify.delivery_refused: Slack refused the call: channel_not_found' });

    const flaky = await chatJob();
    sink.failNext(new DeliveryFailed('Slack answered HTTP 500', { retryable: true }), 5);
    const outcomes: unknown[] = [];
    for (let i = 0; i < 5; i += 1) outcomes.push(at(await delivery().deliver(flaky)));
    expect(outcomes).toEqual([2_000, 4_000, 8_000, 16_000, 'done']);
    expect((await state(flaky))!.lastError).toMatch(/gave up after 5 attempts/);
    expect(sink.sent).toEqual([]);
    expect(await store().getRepository(Job).findOneByOrFail({ id: flaky })).toMatchObject({ status: 'queued' });
  });
});
