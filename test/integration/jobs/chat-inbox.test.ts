import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { TOO_DEEP } from '../../../src/core/storable-json.js';
import { createChatInbox, type ChatDelivery, type ChatEventStarter } from '../../../src/jobs/chat/chat-inbox.js';
import { InProcessNotificationChannel, createQueue, type Queue } from '../../../src/queue/index.js';
import { ChatEventReceipt } from '../../../src/store/entities/chat-event-receipt.entity.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { CHAT_EVENT_JOB, chatEventPayload, chatEventStarter } from '../../../src/workflows/chat-event-starter.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const mention: ChatDelivery = {
  eventId: 'Ev0123ABCD',
  teamId: 'T100',
  kind: 'app_mention',
  payload: { event: { type: 'app_mention', text: '<@U0BOT> check the pricing page', ts: '1700000000.000100' } },
};

forEachDialect('chat inbox', (dialect) => {
  const store = useTestStore(dialect);
  let writes: WriteBatch;
  let queue: Queue;
  beforeEach(() => {
    writes = createWriteBatch(store());
    queue = createQueue(store(), { pollIntervalMs: 1_000, lockLifetimeMs: 10_000, concurrency: 1 }, new InProcessNotificationChannel());
  });
  afterEach(async () => {
    await writes.close();
  });
  const inboxWith = (starter: ChatEventStarter = chatEventStarter(queue)) => createChatInbox({ dataSource: store(), writes, starter });
  const queued = async () => (await store().query('SELECT name, data FROM agenda_jobs')) as { name: string; data: unknown }[];
  const payloadOf = (data: unknown) => chatEventPayload.parse(typeof data === 'string' ? JSON.parse(data) : data);
  const receipts = () => store().getRepository(ChatEventReceipt).count();

  it('keeps the receipt and queues one chat-event job that names it', async () => {
    const inbox = inboxWith();

    expect(await inbox.accept(mention)).toBe('accepted');

    expect(await inbox.load(mention.eventId)).toEqual({ ...mention, settledAt: null, reply: null, repliedAt: null });
    const jobs = await queued();
    expect(jobs.map((job) => [job.name, payloadOf(job.data)])).toEqual([[CHAT_EVENT_JOB, { eventId: mention.eventId }]]);
    expect(await inbox.load('Ev-never-seen')).toBeNull();
  });

  it('answers duplicate for a redelivery, keeps the first payload and queues nothing more', async () => {
    const inbox = inboxWith();
    expect(await inbox.accept(mention)).toBe('accepted');

    expect(await inbox.accept({ ...mention, payload: { retried: true } })).toBe('duplicate');

    expect(await queued()).toHaveLength(1);
    expect((await inbox.load(mention.eventId))?.payload).toEqual(mention.payload);
  });

  it('accepts one of two concurrent deliveries of the same event: one receipt, one queue job', async () => {
    const inbox = inboxWith();

    const outcomes = await Promise.all([inbox.accept(mention), inbox.accept(mention)]);

    expect(outcomes.sort()).toEqual(['accepted', 'duplicate']);
    expect(await queued()).toHaveLength(1);
    expect(await receipts()).toBe(1);
  });

  it('records nothing when the queue job cannot be staged or written, so a redelivery is accepted', async () => {
    const refused = inboxWith({ stage: async () => Promise.reject(new Error('queue unavailable')) });
    await expect(refused.accept(mention)).rejects.toThrow('queue unavailable');
    const broken = inboxWith({ stage: async () => ({ workflowId: randomUUID(), statement: { sql: 'INSERT INTO no_such_table (id) VALUES (?)', params: [1] }, announce: async () => undefined }) });
    await expect(broken.accept(mention)).rejects.toThrow(/no_such_table/);
    expect(await receipts()).toBe(0);
    expect(await queued()).toHaveLength(0);

    expect(await inboxWith().accept(mention)).toBe('accepted');
    expect(await queued()).toHaveLength(1);
  });

  it('keeps a delivery whose text has lone surrogates, with U+FFFD in their place, and recognises its redelivery', async () => {
    const inbox = inboxWith();
    const odd: ChatDelivery = { ...mention, eventId: 'Ev0SURROGATE', payload: { event: { text: 'status abc\ud83d and \udc00, 😀', blocks: ['\ud800'] } } };

    expect(await inbox.accept(odd)).toBe('accepted');
    expect(await inbox.accept(odd)).toBe('duplicate');

    expect((await inbox.load(odd.eventId))?.payload).toEqual({ event: { text: 'status abc\ufffd and \ufffd, 😀', blocks: ['\ufffd'] } });
    expect(await queued()).toHaveLength(1);
  });

  it('keeps a delivery whose blocks are nested deeper than MariaDB takes, with its text and the shallower blocks', async () => {
    const inbox = inboxWith();
    let blocks: unknown = { type: 'text', text: 'deep' };
    for (let level = 0; level < 40; level += 1) blocks = { type: 'rich_text_section', elements: [blocks] };
    const deep: ChatDelivery = { ...mention, eventId: 'Ev0DEEP', payload: { event: { text: 'check the cart', blocks: [blocks] } } };

    expect(await inbox.accept(deep)).toBe('accepted');

    const stored = (await inbox.load(deep.eventId))?.payload as { event: { text: string; blocks: unknown[] } };
    expect(stored.event.text).toBe('check the cart');
    expect(JSON.stringify(stored.event.blocks)).toContain(TOO_DEEP);
    expect(JSON.stringify(stored.event.blocks).startsWith('[{"type":"rich_text_section","elements":[{"type":"rich_text_section"')).toBe(true);
    expect(await queued()).toHaveLength(1);
  });

  it('refuses a delivery without a key or with one longer than the column, and queues nothing', async () => {
    const inbox = inboxWith();
    for (const bad of [{ ...mention, eventId: '' }, { ...mention, eventId: `cmd:T100:${'1'.repeat(160)}` }, { ...mention, teamId: 'T'.repeat(33) }]) {
      await expect(inbox.accept(bad)).rejects.toThrow(RangeError);
    }
    expect(await queued()).toHaveLength(0);
    expect(await receipts()).toBe(0);
  });

  it('settles once: a second settle keeps the first reply; markReplied records the post', async () => {
    const inbox = inboxWith();
    await inbox.accept(mention);
    const first = { channel: 'C200', threadTs: '1700000000.000100', text: 'Started job 1' };

    await inbox.settle(mention.eventId, first);
    const settled = await inbox.load(mention.eventId);
    await inbox.settle(mention.eventId, { channel: 'C200', text: 'Started job 2' });

    const after = await inbox.load(mention.eventId);
    expect(after).toMatchObject({ reply: first, settledAt: settled?.settledAt, repliedAt: null });
    expect(after?.settledAt).toBeInstanceOf(Date);
    await inbox.markReplied(mention.eventId);
    expect((await inbox.load(mention.eventId))?.repliedAt).toBeInstanceOf(Date);
  });

  it('records the opening message of a delivery once: who began posting first, and the first recorded wins for both runs', async () => {
    const inbox = inboxWith();
    await inbox.accept(mention);
    expect(await inbox.opening(mention.eventId)).toBeNull();
    // The first run to begin posting is told it is first; a later one that an opening may already exist.
    expect(await inbox.startOpening(mention.eventId)).toBe(false);
    expect(await inbox.startOpening(mention.eventId)).toBe(true);

    expect(await inbox.recordOpening(mention.eventId, '1700000001.000200')).toBe('1700000001.000200');
    expect(await inbox.recordOpening(mention.eventId, '1700000002.000300')).toBe('1700000001.000200');

    expect(await inbox.opening(mention.eventId)).toBe('1700000001.000200');
    await expect(inbox.recordOpening('Ev-never-seen', '1700000003.000400')).rejects.toThrow(/not stored/);
  });

  it('settles a delivery that needs no reply, and a later settle does not add one', async () => {
    const inbox = inboxWith();
    await inbox.accept(mention);

    await inbox.settle(mention.eventId, null);
    await inbox.settle(mention.eventId, { channel: 'C200', text: 'late' });

    expect(await inbox.load(mention.eventId)).toMatchObject({ reply: null, settledAt: expect.any(Date) });
  });
});
