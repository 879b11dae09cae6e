import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { notifyDeliveryJob } from '../../../src/workflows/notify-delivery.js';
import { createNotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import { InProcessNotificationChannel, createQueue, createWorker, type Queue, type Worker } from '../../../src/queue/index.js';
import { NOTIFY_DELIVERY_JOB } from '../../../src/workflows/notify-starter.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { advance, chatContext, chatInput, jobServiceOn } from './notify-fixtures.js';
import { useSlackThread } from './slack-thread.js';

const TOKEN = 'xoxb-acme-worker';

async function until<T>(probe: () => Promise<T | undefined | false | null>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const THREAD = chatContext('1700000500.000100');

/**
 * The composed `notify-delivery` queue job on a real worker: a chat job's message appears in its thread when the
 * job is created, follows the run, and ends on the final summary; the queue job then completes. Slack failing
 * meanwhile delays the message and nothing else.
 */
// MySQL only: the composition on a worker. The delivery's store side runs on both dialects in
// notify/deliver-progress.test.ts and notify/outbox.test.ts, queue jobs and their retries in queue/worker.test.ts.
describe('notify-delivery on a worker', () => {
  const store = useTestStore('mysql');
  const { world, sink, botMessages } = useSlackThread(store, THREAD, TOKEN);
  let queue: Queue;
  let worker: Worker;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    // Agenda arms a liveness timer of lockLifetime/2 per run: a short lifetime lets the process exit soon.
    queue = createQueue(store(), { pollIntervalMs: 50, lockLifetimeMs: 2_000, concurrency: 2 }, new InProcessNotificationChannel());
    const definition = notifyDeliveryJob({ dataSource: store(), sinks: { chat: sink() }, settings: { minIntervalMs: 200, publicBaseUrl: 'https://qa.example.com' }, logger: silentLogger() });
    // Only the deliveries run here: the jobs' qa-run workflows stay queued, and the test writes their history.
    worker = createWorker(queue, [definition], silentLogger(), 1_000);
    await worker.start();
  });
  afterEach(async () => {
    await worker.stop();
    for (const close of closers.splice(0)) await close();
  });

  const createChatJob = async () => {
    const built = jobServiceOn(store(), { queue });
    closers.push(built.close);
    return (await built.jobs.create(world.principal, chatInput(world.repositoryId, THREAD))).jobId;
  };
  const deliveryJob = async (jobId: string) => {
    await queue.backend.connect();
    return (await queue.backend.repository.queryJobs({ name: NOTIFY_DELIVERY_JOB, data: { jobId } })).jobs[0];
  };

  it('posts when the job is created, edits as it runs, ends on the final summary and completes', async () => {
    const jobId = await createChatJob();
    await world.slack.waitFor(() => botMessages()[0]?.text.includes('queued'));
    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'step.started', { index: 0, description: 'Open /pricing' });
    await world.slack.waitFor(() => botMessages()[0]?.text.includes('running step 1 of'));
    await advance(store(), jobId, 'step.passed', { index: 0 });
    await advance(store(), jobId, 'job.passed');
    await world.slack.waitFor(() => botMessages()[0]?.text.includes('passed'));
    const outbox = createNotificationOutbox(store());
    expect(await until(async () => (await outbox.state(jobId))?.finalDelivered)).toBe(true);
    // The queue job completed: not due again, never failed.
    const completed = await until(async () => {
      const job = await deliveryJob(jobId);
      return job?.lastFinishedAt && !job.lockedAt && job.nextRunAt === null ? job : undefined;
    });
    expect(completed.failCount ?? 0).toBe(0);
    expect(botMessages()).toHaveLength(1);
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(1);
  });

  it('delivers once Slack answers again after a 5xx and a 429, with one message and the job untouched', async () => {
    world.slack.failNext('chat.postMessage', { status: 500, times: 1 });
    world.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1, times: 1 });
    const jobId = await createChatJob();
    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'job.passed');
    await world.slack.waitFor(() => botMessages()[0]?.text.includes('passed'), 10_000);
    expect(world.slack.callsOf('chat.postMessage').map((call) => call.outcome)).toEqual(['http 500', 'http 429', 'ok']);
    expect(botMessages()).toHaveLength(1);
    expect(await store().getRepository(Job).findOneByOrFail({ id: jobId })).toMatchObject({ status: 'passed' });
  });
});
