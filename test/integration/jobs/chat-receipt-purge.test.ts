import { afterEach, expect, it } from '@jest/globals';
import { purgeSettledChatReceipts } from '../../../src/jobs/chat/chat-inbox.js';
import { InProcessNotificationChannel, createQueue, createWorker, type Worker } from '../../../src/queue/index.js';
import { ChatEventReceipt } from '../../../src/store/entities/chat-event-receipt.entity.js';
import { CHAT_RECEIPT_PURGE_JOB, chatReceiptPurgeJob } from '../../../src/workflows/chat-receipt-purge.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-24T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * HOUR);

interface Seed {
  eventId: string;
  receivedHoursAgo: number;
  /** null: never settled. */
  settledHoursAgo: number | null;
}

forEachDialect('chat receipt purge', (dialect) => {
  const store = useTestStore(dialect);
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  async function seed(rows: Seed[]): Promise<void> {
    await store()
      .getRepository(ChatEventReceipt)
      .insert(
        rows.map(({ eventId, receivedHoursAgo, settledHoursAgo }) => ({
          eventId,
          teamId: 'T100',
          kind: 'app_mention',
          payload: { event_id: eventId },
          receivedAt: hoursAgo(receivedHoursAgo),
          settledAt: settledHoursAgo === null ? null : hoursAgo(settledHoursAgo),
          reply: null,
          repliedAt: null,
        })),
      );
  }
  const left = async () => (await store().getRepository(ChatEventReceipt).find({ select: { eventId: true }, order: { eventId: 'ASC' } })).map((row) => row.eventId);

  it('deletes settled receipts older than the cut-off, and keeps unsettled ones however old and recent settled ones', async () => {
    await seed([
      { eventId: 'Ev-old-settled', receivedHoursAgo: 100, settledHoursAgo: 99 },
      { eventId: 'Ev-old-replied', receivedHoursAgo: 80, settledHoursAgo: 80 },
      { eventId: 'Ev-old-unsettled', receivedHoursAgo: 500, settledHoursAgo: null },
      // Received long ago but settled within the retention (its reply was retried late): kept.
      { eventId: 'Ev-late-settled', receivedHoursAgo: 100, settledHoursAgo: 71 },
      { eventId: 'Ev-recent', receivedHoursAgo: 1, settledHoursAgo: 1 },
      { eventId: 'Ev-recent-unsettled', receivedHoursAgo: 0, settledHoursAgo: null },
    ]);

    const result = await purgeSettledChatReceipts(store(), { settledBefore: hoursAgo(72), batchSize: 500, maxBatches: 10 });

    expect(result).toEqual({ deleted: 2, batches: 1, more: false });
    expect(await left()).toEqual(['Ev-late-settled', 'Ev-old-unsettled', 'Ev-recent', 'Ev-recent-unsettled']);
  });

  it('keeps a receipt settled exactly at the cut-off (only strictly older ones go)', async () => {
    await seed([
      { eventId: 'Ev-at-cutoff', receivedHoursAgo: 73, settledHoursAgo: 72 },
      { eventId: 'Ev-just-older', receivedHoursAgo: 73, settledHoursAgo: 72.001 },
    ]);

    await purgeSettledChatReceipts(store(), { settledBefore: hoursAgo(72), batchSize: 10, maxBatches: 1 });

    expect(await left()).toEqual(['Ev-at-cutoff']);
  });

  it('deletes in batches of the size given, oldest first, stops at the batch limit and says more is left; the next call goes on', async () => {
    await seed([
      ...Array.from({ length: 7 }, (_, n) => ({ eventId: `Ev-old-${n}`, receivedHoursAgo: 200 - n, settledHoursAgo: 200 - n })),
      { eventId: 'Ev-unsettled', receivedHoursAgo: 300, settledHoursAgo: null },
    ]);

    const first = await purgeSettledChatReceipts(store(), { settledBefore: hoursAgo(72), batchSize: 3, maxBatches: 2 });

    expect(first).toEqual({ deleted: 6, batches: 2, more: true });
    // The six oldest went; the newest of the old ones is left for the next run.
    expect(await left()).toEqual(['Ev-old-6', 'Ev-unsettled']);
    const second = await purgeSettledChatReceipts(store(), { settledBefore: hoursAgo(72), batchSize: 3, maxBatches: 2 });
    expect(second).toEqual({ deleted: 1, batches: 1, more: false });
    expect(await left()).toEqual(['Ev-unsettled']);
    expect(await purgeSettledChatReceipts(store(), { settledBefore: hoursAgo(72), batchSize: 3, maxBatches: 2 })).toEqual({ deleted: 0, batches: 0, more: false });
  });

  it('stops between batches once its signal is aborted (a worker shutting down)', async () => {
    await seed(Array.from({ length: 4 }, (_, n) => ({ eventId: `Ev-${n}`, receivedHoursAgo: 100, settledHoursAgo: 100 })));
    const controller = new AbortController();
    controller.abort();

    expect(await purgeSettledChatReceipts(store(), { settledBefore: hoursAgo(72), batchSize: 1, maxBatches: 10, signal: controller.signal })).toEqual({
      deleted: 0,
      batches: 0,
      more: true,
    });
    expect(await left()).toHaveLength(4);
  });

  it('runs on the queue as soon as a worker with the chat jobs starts, with the configured retention, and stays scheduled hourly', async () => {
    await seed([
      { eventId: 'Ev-a-day-old', receivedHoursAgo: 25, settledHoursAgo: 25 },
      { eventId: 'Ev-an-hour-old', receivedHoursAgo: 1.5, settledHoursAgo: 1.5 },
      { eventId: 'Ev-a-week-unsettled', receivedHoursAgo: 170, settledHoursAgo: null },
    ]);
    // A short lock lifetime: Agenda's liveness timer (half of it) would otherwise outlive the test.
    const queue = createQueue(store(), { pollIntervalMs: 50, lockLifetimeMs: 1_000, concurrency: 1 }, new InProcessNotificationChannel());
    worker = createWorker(queue, [chatReceiptPurgeJob(store(), { retentionHours: 24, batchSize: 1, now: () => NOW })], silentLogger(), 5_000);

    await worker.start();

    const deadline = Date.now() + 10_000;
    while ((await left()).includes('Ev-a-day-old') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await left()).toEqual(['Ev-a-week-unsettled', 'Ev-an-hour-old']);
    const rows = (await store().query('SELECT type, repeat_interval FROM agenda_jobs WHERE name = ?', [CHAT_RECEIPT_PURGE_JOB])) as { type: string; repeat_interval: string }[];
    expect(rows).toEqual([{ type: 'single', repeat_interval: String(HOUR) }]);
  });
});
