import { afterEach, expect, it } from '@jest/globals';
import { createDirectoryWriter } from '../../../src/identity/directory-writer.js';
import { createWebhookReceipts, type WebhookReceipts } from '../../../src/jobs/webhooks/webhook-receipts.js';
import { InProcessNotificationChannel, createQueue, createWorker, type Queue, type Worker } from '../../../src/queue/index.js';
import { DirectoryMembership } from '../../../src/store/entities/directory-membership.entity.js';
import { DirectoryUser } from '../../../src/store/entities/directory-user.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { identityDeliveryHandler } from '../../../src/webhooks/identity/identity-handler.js';
import { webhookDeliveryJob } from '../../../src/workflows/webhook-delivery.js';
import { webhookDeliveryStarter } from '../../../src/workflows/webhook-delivery-starter.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { identityEvent, identityObjects, type IdentityEventBody } from '../../support/identity-deliveries.js';
import { silentLogger } from '../../support/logger.js';

const settings = { pollIntervalMs: 50, lockLifetimeMs: 4_000, concurrency: 2 };

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The identity handler as `qa worker` composes it, over the shared receipts and queue job. */
forEachDialect('identity delivery processing', (dialect) => {
  const store = useTestStore(dialect);
  let queue: Queue | undefined;
  let worker: Worker | undefined;
  let writes: WriteBatch | undefined;
  afterEach(async () => {
    await worker?.stop();
    await queue?.backend.disconnect();
    await writes?.close();
    [worker, queue, writes] = [undefined, undefined, undefined];
  });

  function startWorker(): WebhookReceipts {
    queue = createQueue(store(), settings, new InProcessNotificationChannel());
    writes = createWriteBatch(store());
    const receipts = createWebhookReceipts({ dataSource: store(), writes, starter: webhookDeliveryStarter(queue) });
    const handlers = { identity: identityDeliveryHandler({ directory: createDirectoryWriter({ dataSource: store() }) }) };
    worker = createWorker(queue, [webhookDeliveryJob({ receipts, handlers })], silentLogger(), 5_000);
    void worker.start();
    return receipts;
  }
  const record = (receipts: WebhookReceipts, deliveryId: string, body: IdentityEventBody | Record<string, unknown>) =>
    receipts.record({ provider: 'identity', deliveryId, event: String(body.event), rawBody: Buffer.from(JSON.stringify(body)), payload: body as unknown as Record<string, unknown> });
  const receipt = (deliveryId: string) => store().getRepository(WebhookReceipt).findOneBy({ deliveryId });

  it('applies stored deliveries to the directory and completes their receipts, a membership before its user included', async () => {
    const receipts = startWorker();

    await record(receipts, 'd-membership', identityEvent('organization_membership.created', identityObjects.membership('om_1', '2026-12-01T10:00:00Z', { user_id: 'user_1', organization_id: 'org_1' })));
    await record(receipts, 'd-user', identityEvent('user.created', identityObjects.user('user_1', '2026-12-01T10:00:00Z', { name: 'Ada' })));
    await record(receipts, 'd-ignored', identityEvent('session.created', { id: 'session_1' }));

    for (const id of ['d-membership', 'd-user', 'd-ignored']) await until(async () => (await receipt(id))?.status === 'completed');
    expect(await store().getRepository(DirectoryUser).findOneByOrFail({ id: 'user_1' })).toMatchObject({ name: 'Ada', deletedAt: null });
    expect(await store().getRepository(DirectoryMembership).findOneByOrFail({ id: 'om_1' })).toMatchObject({ userId: 'user_1', organizationId: 'org_1', status: 'active' });
  });

  it('fails a stored delivery whose object is malformed with webhook.payload_invalid, writing nothing', async () => {
    const receipts = startWorker();

    await record(receipts, 'd-bad', { id: 'e', event: 'user.updated', data: { id: 'user_2' }, created_at: '2026-12-01T10:00:00Z' });

    const failed = await until(async () => {
      const stored = await receipt('d-bad');
      return stored?.status === 'failed' ? stored : undefined;
    });
    expect(failed.lastError).toMatch(/^The user\.updated delivery is not a payload this service understands: updated_at/);
    expect(await store().getRepository(DirectoryUser).count()).toBe(0);
  });
});
