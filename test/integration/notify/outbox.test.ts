import { afterEach, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createNotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import type { Queue } from '../../../src/queue/index.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { JobNotification } from '../../../src/store/entities/job-notification.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { NOTIFY_DELIVERY_JOB } from '../../../src/workflows/notify-starter.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { chatContext, chatInput, jobServiceOn, REVIEW_TASK, threadKey } from './notify-fixtures.js';

/** A chat job's outbox row and its delivery are written with the job, in its transaction, or not at all. */
forEachDialect('notification outbox', (dialect) => {
  const store = useTestStore(dialect);
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const service = (starters: Parameters<typeof jobServiceOn>[1] = {}) => {
    const built = jobServiceOn(store(), starters);
    closers.push(built.close, () => built.queue.backend.disconnect());
    return built;
  };
  const deliveriesOn = async (queue: Queue) => {
    await queue.backend.connect();
    return (await queue.backend.repository.queryJobs({ name: NOTIFY_DELIVERY_JOB })).jobs;
  };
  const setUp = async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    return { organizationId: organization.id, principal, repositoryId: await insertRepository(store(), organization.id) };
  };

  it('writes a chat job\'s outbox row and stages its notify-delivery queue job with the job', async () => {
    const { organizationId, principal, repositoryId } = await setUp();
    const { jobs, queue } = service();
    const context = chatContext();
    const created = await jobs.create(principal, chatInput(repositoryId, context));
    expect(await store().getRepository(JobNotification).findOneByOrFail({ jobId: created.jobId })).toMatchObject({
      organizationId,
      channel: 'chat',
      threadKey: `slack:T0ACME:C0QA:1700000000.000100`,
      context,
      messageHandle: null,
      deliveredSeq: -1,
      finalDelivered: false,
      postingSince: null,
      attempts: 0,
      lastError: null,
    });
    const deliveries = await deliveriesOn(queue);
    expect(deliveries.map((job) => job.data)).toEqual([{ jobId: created.jobId }]);
    expect(deliveries[0]!.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('writes no row and no delivery for a job without a chat context (none, or another channel\'s)', async () => {
    const { principal, repositoryId } = await setUp();
    const { jobs, queue } = service();
    await jobs.create(principal, chatInput(repositoryId, undefined));
    await jobs.create(principal, chatInput(repositoryId, { channel: 'web', tab: 3 }));
    expect(await store().getRepository(Job).count()).toBe(2);
    expect(await store().getRepository(JobNotification).count()).toBe(0);
    expect(await deliveriesOn(queue)).toEqual([]);
  });

  it('writes nothing when the delivery\'s queue row fails inside the job\'s transaction', async () => {
    const { principal, repositoryId } = await setUp();
    let announced = false;
    const { jobs } = service({
      notifications: {
        stage: async () => ({
          workflowId: randomUUID(),
          statement: { sql: 'INSERT INTO no_such_table (id) VALUES (?)', params: [1] },
          announce: async () => {
            announced = true;
          },
        }),
      },
    });
    await expect(jobs.create(principal, chatInput(repositoryId, chatContext()))).rejects.toThrow(/no_such_table/);
    expect(await store().getRepository(Job).count()).toBe(0);
    expect(await store().getRepository(JobEvent).count()).toBe(0);
    expect(await store().getRepository(JobNotification).count()).toBe(0);
    expect(announced).toBe(false);
  });

  it('refuses a chat context its channel cannot deliver to, with a coded 400, before anything is written', async () => {
    const { principal, repositoryId } = await setUp();
    const { jobs } = service();
    const broken = { ...chatContext(), threadTs: undefined, teamId: 'not a team' };
    await expect(jobs.create(principal, chatInput(repositoryId, broken))).rejects.toMatchObject({
      code: 'job.channel_context_invalid',
      status: 400,
      details: { field: 'channelContext', issues: expect.arrayContaining(['teamId', 'threadTs']) },
    });
    expect(await store().getRepository(Job).count()).toBe(0);
  });

  it('lists a thread\'s jobs newest first, the answered parent and its child included, and no other thread\'s', async () => {
    const { principal, repositoryId } = await setUp();
    const { jobs } = service();
    const context = chatContext();
    const parent = await jobs.create(principal, chatInput(repositoryId, context, REVIEW_TASK));
    expect(parent.kind).toBe('review_required');
    const child = await jobs.answer(principal, parent.jobId, ['yes, it is disposable test data']);
    await jobs.create(principal, chatInput(repositoryId, chatContext('1700000099.000200')));
    const outbox = createNotificationOutbox(store());
    const listed = await outbox.inThread(threadKey(context));
    expect(listed.map((job) => job.id)).toEqual([child.jobId, parent.jobId]);
    expect(listed[1]).toMatchObject({ status: 'review_required', parentJobId: null, resolution: { questions: [expect.stringMatching(/^Should the run really delete/)] } });
    expect(listed[0]).toMatchObject({ parentJobId: parent.jobId });
    expect(await outbox.inThread('slack:T0ACME:C0QA:1.000000')).toEqual([]);
  });

  it('stages one more delivery for an answered review_required job whose final message is out, and none before', async () => {
    const { principal, repositoryId } = await setUp();
    const { jobs, queue } = service();
    const early = await jobs.create(principal, chatInput(repositoryId, chatContext(), REVIEW_TASK));
    // Answered before its first delivery: that delivery is still to run, and will show the answer.
    await jobs.answer(principal, early.jobId, ['yes']);
    const late = await jobs.create(principal, chatInput(repositoryId, chatContext(), REVIEW_TASK));
    await createNotificationOutbox(store()).recordDelivery(late.jobId, { handle: '1.1', deliveredSeq: 1, final: true, at: new Date() });
    const child = await jobs.answer(principal, late.jobId, ['no, stop before deleting']);
    const deliveries = (await deliveriesOn(queue)).map((job) => (job.data as { jobId: string }).jobId);
    const count = (jobId: string) => deliveries.filter((id) => id === jobId).length;
    expect([count(early.jobId), count(late.jobId), count(child.jobId)]).toEqual([1, 2, 1]);
    expect(await store().getRepository(JobNotification).findOneByOrFail({ jobId: late.jobId })).toMatchObject({ finalDelivered: false, messageHandle: '1.1' });
  });

  it('records the posting intent, a delivery and a failure on the job\'s row', async () => {
    const { principal, repositoryId } = await setUp();
    const { jobs } = service();
    const { jobId } = await jobs.create(principal, chatInput(repositoryId, chatContext()));
    const outbox = createNotificationOutbox(store());
    const at = new Date('2026-11-24T09:00:00.250Z');
    await outbox.markPosting(jobId, at);
    await outbox.recordFailure(jobId, 'notify.delivery_retryable: Slack answered HTTP 503');
    await outbox.recordFailure(jobId, `notify.delivery_retryable: ${'x'.repeat(2_000)}`);
    expect(await outbox.state(jobId)).toMatchObject({ postingSince: at, attempts: 2, lastError: expect.stringMatching(/^notify.delivery_retryable: x+$/) });
    expect((await outbox.state(jobId))!.lastError).toHaveLength(1_000);
    await outbox.recordDelivery(jobId, { handle: '1700000001.000001', deliveredSeq: 4, final: true, at });
    expect(await outbox.state(jobId)).toMatchObject({
      messageHandle: '1700000001.000001',
      deliveredSeq: 4,
      finalDelivered: true,
      postingSince: null,
      attempts: 0,
      lastError: null,
      lastDeliveredAt: at,
    });
    expect(await outbox.state(randomUUID())).toBeNull();
  });
});
