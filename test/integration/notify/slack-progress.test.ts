import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readJobForNotification } from '../../../src/jobs/job-for-notification.js';
import { createNotificationOutbox, type NotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import { createProgressDelivery, type DeliveryOutcome } from '../../../src/notify/deliver-progress.js';
import { useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { advance, chatContext, chatInput, jobServiceOn } from './notify-fixtures.js';
import { useSlackThread } from './slack-thread.js';

const TOKEN = 'xoxb-acme-test';
const THREAD = chatContext();

/** The notify-delivery handler through the Slack sink and the real WebClient, against the fake Slack Web API. */
// MySQL only: this is Slack's side (the thread message, its metadata, retries and recovery). The delivery's store
// side runs on both dialects in notify/deliver-progress.test.ts and notify/outbox.test.ts, workspaces in
// jobs/chat-workspaces.test.ts.
describe('progress in a Slack thread', () => {
  const store = useTestStore('mysql');
  const { world, sink, botMessages } = useSlackThread(store, THREAD, TOKEN);
  let clock: Date;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(() => {
    // The real time: the clock moves on from when the events are written.
    clock = new Date();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const delivery = (outbox: Pick<NotificationOutbox, 'state' | 'markPosting' | 'recordDelivery' | 'recordRecovered' | 'recordFailure'> = createNotificationOutbox(store())) =>
    createProgressDelivery({
      outbox,
      read: (jobId) => readJobForNotification(store(), jobId),
      sinks: { chat: sink() },
      settings: { minIntervalMs: 1_500, publicBaseUrl: 'https://qa.example.com' },
      logger: silentLogger(),
      now: () => clock,
    });
  const chatJob = async (context = THREAD) => {
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    return (await built.jobs.create(world.principal, chatInput(world.repositoryId, context))).jobId;
  };
  const state = (jobId: string) => createNotificationOutbox(store()).state(jobId);
  const wait = (outcome: DeliveryOutcome) => (outcome === 'done' ? 'done' : outcome.runAgainAt.getTime() - clock.getTime());
  const tick = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  it('posts one message in the thread with the job in its metadata, and edits it to the final summary', async () => {
    const jobId = await chatJob();
    await delivery().deliver(jobId);
    const [posted] = botMessages();
    expect(posted).toMatchObject({ thread_ts: THREAD.threadTs, metadata: { event_type: 'qa_job_progress', event_payload: { job_id: jobId } } });
    expect(posted!.text).toMatch(/queued/);
    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'step.started', { index: 0, description: 'Open /pricing' });
    await advance(store(), jobId, 'step.failed', { index: 0, kind: 'navigation_failed', message: 'Could not open /pricing' });
    await advance(store(), jobId, 'job.failed');
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(world.slack.callsOf('chat.update')).toHaveLength(1);
    expect(botMessages()).toHaveLength(1);
    expect(botMessages()[0]!.text).toMatch(/^QA job \w{8} failed/);
    expect(await state(jobId)).toMatchObject({ messageHandle: posted!.ts, finalDelivered: true });
  });

  it('retries a 429 after its Retry-After, a 5xx and a dropped connection with back-off, and still posts once', async () => {
    const jobId = await chatJob();
    world.slack.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    expect(wait(await delivery().deliver(jobId))).toBe(7_000);
    world.slack.failNext('chat.postMessage', { status: 503 });
    expect(wait(await delivery().deliver(jobId))).toBe(4_000);
    world.slack.dropNext('chat.postMessage');
    expect(wait(await delivery().deliver(jobId))).toBe(8_000);
    expect(await state(jobId)).toMatchObject({ attempts: 3, lastError: expect.stringMatching(/^notify.delivery_retryable: Slack could not be reached/) });
    expect(wait(await delivery().deliver(jobId))).toBe(1_500);
    expect(world.slack.callsOf('chat.postMessage').map((call) => call.outcome)).toEqual(['http 429', 'http 503', 'dropped', 'ok']);
    // Each failed first post may have gone through: the thread was looked at before posting again.
    expect(world.slack.callsOf('conversations.replies')).toHaveLength(3);
    expect(botMessages()).toHaveLength(1);
    expect(await state(jobId)).toMatchObject({ attempts: 0, lastError: null });
  });

  it('after a worker dies between Slack\'s answer and the commit, finds the message in the thread and edits it', async () => {
    const jobId = await chatJob();
    const real = createNotificationOutbox(store());
    await expect(delivery({ ...real, recordDelivery: () => Promise.reject(new Error('worker killed')) }).deliver(jobId)).rejects.toThrow('worker killed');
    expect(botMessages()).toHaveLength(1);
    await advance(store(), jobId, 'job.started');
    await advance(store(), jobId, 'job.passed');
    tick(1_500);
    expect(await delivery().deliver(jobId)).toBe('done');
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(world.slack.callsOf('conversations.replies')[0]!.params).toMatchObject({ channel: THREAD.channelId, ts: THREAD.threadTs, include_all_metadata: 'true' });
    expect(botMessages()).toHaveLength(1);
    expect(botMessages()[0]!.text).toMatch(/passed/);
  });

  it('posts after a failed first post in a thread Slack cannot find (thread_not_found): no message of ours is there yet', async () => {
    // A root the fake does not hold: Slack answers conversations.replies with thread_not_found.
    const jobId = await chatJob(chatContext('1700000000.000999'));
    world.slack.failNext('chat.postMessage', { status: 503 });
    expect(wait(await delivery().deliver(jobId))).toBe(2_000);
    expect(wait(await delivery().deliver(jobId))).toBe(1_500);
    expect(world.slack.callsOf('conversations.replies').map((call) => call.outcome)).toEqual(['thread_not_found']);
    expect(world.slack.callsOf('chat.postMessage').map((call) => call.outcome)).toEqual(['http 503', 'ok']);
    expect(botMessages()).toHaveLength(1);
    expect(await state(jobId)).toMatchObject({ attempts: 0, lastError: null, messageHandle: botMessages()[0]!.ts });
  });

  it('stops for good when Slack refuses the channel, or when the workspace is not the job\'s organization\'s', async () => {
    const refused = await chatJob();
    world.slack.failNext('chat.postMessage', { error: 'channel_not_found' });
    expect(await delivery().deliver(refused)).toBe('done');
    expect(await state(refused)).toMatchObject({ finalDelivered: false, lastError: 'notify.delivery_refused: Slack refused the call: channel_not_found' });

    const elsewhere = await chatJob(chatContext(THREAD.threadTs, 'T0OTHER'));
    expect(await delivery().deliver(elsewhere)).toBe('done');
    expect((await state(elsewhere))!.lastError).toMatch(/^notify.delivery_refused: Slack workspace T0OTHER is not connected to the job's organization/);
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(botMessages()).toHaveLength(0);
  });
});
