import { afterEach, expect, it } from '@jest/globals';
import { createWebhookReceipts, type ClaimedReceipt, type WebhookDelivery, type WebhookReceipts } from '../../../src/jobs/webhooks/webhook-receipts.js';
import { InProcessNotificationChannel, createQueue, createWorker, type Queue, type Worker } from '../../../src/queue/index.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { webhookDeliveryJob, type DeliveryHandlers } from '../../../src/workflows/webhook-delivery.js';
import { webhookDeliveryStarter } from '../../../src/workflows/webhook-delivery-starter.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';

const settings = { pollIntervalMs: 50, lockLifetimeMs: 4_000, concurrency: 2 };

const delivery = (deliveryId: string): WebhookDelivery => {
  const payload = { action: 'opened', number: 7 };
  return { provider: 'codehost', deliveryId, event: 'pull_request', rawBody: Buffer.from(JSON.stringify(payload)), payload };
};

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

forEachDialect('webhook delivery processing', (dialect) => {
  const store = useTestStore(dialect);
  const queues: Queue[] = [];
  const workers: Worker[] = [];
  let writes: WriteBatch | undefined;
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    for (const queue of queues.splice(0)) await queue.backend.disconnect();
    await writes?.close();
  });

  /** A worker process of its own (queue, receipts, handlers), as `qa worker` composes one. */
  function startWorker(handlers: DeliveryHandlers): WebhookReceipts {
    const queue = createQueue(store(), settings, new InProcessNotificationChannel());
    writes ??= createWriteBatch(store());
    const receipts = createWebhookReceipts({ dataSource: store(), writes, starter: webhookDeliveryStarter(queue) });
    const worker = createWorker(queue, [webhookDeliveryJob({ receipts, handlers })], silentLogger(), 5_000);
    queues.push(queue);
    workers.push(worker);
    void worker.start();
    return receipts;
  }
  const status = async (deliveryId: string) => (await store().getRepository(WebhookReceipt).findOneBy({ deliveryId }))?.status;

  it('runs the provider handler once with the stored payload and completes the receipt', async () => {
    const seen: ClaimedReceipt[] = [];
    const receipts = startWorker({ codehost: async (receipt) => void seen.push(receipt) });

    await receipts.record(delivery('d-1'));

    await until(async () => (await status('d-1')) === 'completed');
    expect(seen).toEqual([expect.objectContaining({ provider: 'codehost', deliveryId: 'd-1', event: 'pull_request', payload: { action: 'opened', number: 7 }, attempts: 1 })]);
  });

  it('records a failing handler on the receipt (failed, with its error and back-off) and does not run it again from the queue', async () => {
    let calls = 0;
    const receipts = startWorker({
      codehost: async () => {
        calls += 1;
        throw new Error('code host answered 502');
      },
    });

    await receipts.record(delivery('d-2'));

    await until(async () => (await status('d-2')) === 'failed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls).toBe(1);
    expect(await store().getRepository(WebhookReceipt).findOneByOrFail({ deliveryId: 'd-2' })).toMatchObject({ lastError: 'code host answered 502', attempts: 1, nextAttemptAt: expect.any(Date) });
  });

  it('processes a receipt queued twice, on two workers at once, exactly once', async () => {
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = async () => {
      calls += 1;
      await held;
    };
    const first = startWorker({ codehost: handler });
    startWorker({ codehost: handler });

    const { receiptId } = await first.record(delivery('d-3'));
    // A second queue job for the same receipt (the sweep requeues a pending one whose job it thinks lost).
    await webhookDeliveryStarter(queues[1]!).enqueue(receiptId);
    await until(async () => calls > 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();

    await until(async () => (await status('d-3')) === 'completed');
    expect(calls).toBe(1);
  });
});
