import { createHash } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { TOO_DEEP } from '../../../src/core/storable-json.js';
import { MAX_RECEIPT_ATTEMPTS, PENDING_GRACE_MS, RECEIPT_LEASE_MS, retryDelayMs } from '../../../src/core/webhook-receipt.js';
import { InProcessNotificationChannel, createQueue, type Queue } from '../../../src/queue/index.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { createWebhookReceipts, type WebhookDelivery } from '../../../src/jobs/webhooks/webhook-receipts.js';
import { WEBHOOK_DELIVERY_JOB, webhookDeliveryPayload, webhookDeliveryStarter } from '../../../src/workflows/webhook-delivery-starter.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const body = Buffer.from(JSON.stringify({ action: 'opened', number: 7, pull_request: { head: { sha: 'a'.repeat(40) } } }));
const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  provider: 'codehost', deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958', event: 'pull_request', rawBody: body,
  payload: JSON.parse(body.toString()) as Record<string, unknown>, ...overrides,
});

forEachDialect('webhook receipts', (dialect) => {
  const store = useTestStore(dialect);
  let writes: WriteBatch;
  let queue: Queue;
  // A clock the test moves: leases and back-off are minutes long.
  let clock: Date;
  beforeEach(() => {
    writes = createWriteBatch(store());
    queue = createQueue(store(), { pollIntervalMs: 1_000, lockLifetimeMs: 10_000, concurrency: 1 }, new InProcessNotificationChannel());
    clock = new Date('2026-11-24T10:00:00.000Z');
  });
  afterEach(async () => {
    await writes.close();
  });
  const receiptsWith = () => createWebhookReceipts({ dataSource: store(), writes, starter: webhookDeliveryStarter(queue), now: () => new Date(clock) });
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  const queued = async () =>
    ((await store().query('SELECT name, data FROM agenda_jobs')) as { name: string; data: unknown }[]).map((job) => [
      job.name, webhookDeliveryPayload.parse(typeof job.data === 'string' ? JSON.parse(job.data) : job.data).receiptId,
    ]);
  const stored = (id: string) => store().getRepository(WebhookReceipt).findOneByOrFail({ id });

  it('stores the delivery with the hash of its bytes and queues its processing in the same commit', async () => {
    const { outcome, receiptId } = await receiptsWith().record(delivery());

    expect(outcome).toBe('accepted');
    expect(await queued()).toEqual([[WEBHOOK_DELIVERY_JOB, receiptId]]);
    expect(await stored(receiptId)).toMatchObject({
      provider: 'codehost', event: 'pull_request', status: 'pending', attempts: 0, payload: delivery().payload,
      bodySha256: createHash('sha256').update(body).digest('hex'),
    });
  });

  it('processes a delivery posted 20 times at once exactly once: one receipt, one queue job', async () => {
    const receipts = receiptsWith();

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => receipts.record(delivery())));

    expect(outcomes.filter(({ outcome }) => outcome === 'accepted')).toHaveLength(1);
    expect(outcomes.filter(({ outcome }) => outcome === 'duplicate')).toHaveLength(19);
    expect(new Set(outcomes.map(({ receiptId }) => receiptId)).size).toBe(1);
    expect(await queued()).toHaveLength(1);
    expect(await store().getRepository(WebhookReceipt).count()).toBe(1);
  });

  it('refuses the same delivery id with other bytes, and keeps the first', async () => {
    const receipts = receiptsWith();
    const first = await receipts.record(delivery());
    const forged = Buffer.from(JSON.stringify({ action: 'opened', number: 8 }));

    const second = await receipts.record(delivery({ rawBody: forged, payload: JSON.parse(forged.toString()) as Record<string, unknown> }));

    expect(second).toEqual({ outcome: 'conflict', receiptId: first.receiptId });
    expect((await stored(first.receiptId)).payload).toEqual(delivery().payload);
    // The same id from another provider is another delivery.
    expect((await receipts.record(delivery({ provider: 'identity' }))).outcome).toBe('accepted');
  });

  it('leases a receipt to one worker: a second claim gets nothing, and only the holder completes it', async () => {
    const receipts = receiptsWith();
    const { receiptId } = await receipts.record(delivery());

    const claims = await Promise.all([receipts.claim(receiptId, 'worker-a'), receipts.claim(receiptId, 'worker-b')]);

    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    const holder = claims[0] ? 'worker-a' : 'worker-b';
    const other = holder === 'worker-a' ? 'worker-b' : 'worker-a';
    expect(await stored(receiptId)).toMatchObject({ status: 'processing', leaseOwner: holder, attempts: 1, leaseExpiresAt: new Date(clock.getTime() + RECEIPT_LEASE_MS) });
    expect(await receipts.complete(receiptId, other)).toBe(false);
    expect(await receipts.fail(receiptId, other, 'not mine')).toBe('lost');
    // A redelivery while the lease is live is acknowledged and left alone.
    expect((await receipts.record(delivery())).outcome).toBe('in_progress');

    expect(await receipts.complete(receiptId, holder)).toBe(true);
    expect(await stored(receiptId)).toMatchObject({ status: 'completed', leaseOwner: null, completedAt: clock });
    expect(await receipts.claim(receiptId, other)).toBeNull();
    expect((await receipts.record(delivery())).outcome).toBe('duplicate');
    expect(await queued()).toHaveLength(1);
  });

  it('takes over a receipt whose worker died once its lease has expired; the dead worker cannot complete it', async () => {
    const receipts = receiptsWith();
    const { receiptId } = await receipts.record(delivery());
    expect(await receipts.claim(receiptId, 'died')).not.toBeNull();

    advance(RECEIPT_LEASE_MS - 1);
    expect(await receipts.claim(receiptId, 'successor')).toBeNull();
    advance(2);
    expect(await receipts.claim(receiptId, 'successor')).toMatchObject({ id: receiptId, attempts: 2 });

    expect(await receipts.complete(receiptId, 'died')).toBe(false);
    expect(await receipts.complete(receiptId, 'successor')).toBe(true);
  });

  it('requeues a failed receipt on the provider\'s redelivery, and through the sweep after its back-off', async () => {
    const receipts = receiptsWith();
    const { receiptId } = await receipts.record(delivery());
    await receipts.claim(receiptId, 'w1');
    expect(await receipts.fail(receiptId, 'w1', 'code host answered 502')).toBe('failed');
    expect(await stored(receiptId)).toMatchObject({ status: 'failed', lastError: 'code host answered 502', nextAttemptAt: new Date(clock.getTime() + retryDelayMs(1)) });

    // The sweep waits for the back-off.
    expect(await receipts.sweep()).toEqual({ requeued: 0 });
    advance(retryDelayMs(1));
    expect(await receipts.sweep()).toEqual({ requeued: 1 });
    expect(await stored(receiptId)).toMatchObject({ status: 'pending', nextAttemptAt: null });
    expect(await queued()).toHaveLength(2);

    await receipts.claim(receiptId, 'w2');
    await receipts.fail(receiptId, 'w2', 'again');
    expect(await receipts.record(delivery())).toEqual({ outcome: 'requeued', receiptId });
    expect(await queued()).toHaveLength(3);
  });

  it('sweeps expired leases and pending receipts that lost their queue job', async () => {
    const receipts = receiptsWith();
    const abandoned = (await receipts.record(delivery({ deliveryId: 'abandoned' }))).receiptId;
    const lost = (await receipts.record(delivery({ deliveryId: 'lost-job' }))).receiptId;
    await receipts.claim(abandoned, 'died');

    advance(PENDING_GRACE_MS + 1);
    expect(await receipts.sweep()).toEqual({ requeued: 1 });
    expect(await queued()).toEqual(expect.arrayContaining([[WEBHOOK_DELIVERY_JOB, lost]]));
    advance(RECEIPT_LEASE_MS);
    const swept = await receipts.sweep();
    expect(swept.requeued).toBeGreaterThanOrEqual(1);
    expect(await stored(abandoned)).toMatchObject({ status: 'pending', leaseOwner: null });
  });

  it(`leaves a receipt dead after ${MAX_RECEIPT_ATTEMPTS} failed attempts for an operator, who can redeliver it`, async () => {
    const receipts = receiptsWith();
    const { receiptId } = await receipts.record(delivery());
    for (let attempt = 1; attempt <= MAX_RECEIPT_ATTEMPTS; attempt++) {
      expect(await receipts.claim(receiptId, `w${attempt}`)).not.toBeNull();
      expect(await receipts.fail(receiptId, `w${attempt}`, `failure ${attempt}`)).toBe(attempt === MAX_RECEIPT_ATTEMPTS ? 'dead' : 'failed');
    }
    advance(24 * 3600_000);
    expect(await receipts.sweep()).toEqual({ requeued: 0 });
    expect(await receipts.claim(receiptId, 'late')).toBeNull();
    expect((await receipts.list({ failed: true })).map((receipt) => [receipt.id, receipt.status, receipt.lastError])).toEqual([[receiptId, 'dead', `failure ${MAX_RECEIPT_ATTEMPTS}`]]);

    expect(await receipts.redeliver('no-such-receipt')).toBe('not_found');
    expect(await receipts.redeliver(delivery().deliveryId)).toBe('requeued');
    expect(await stored(receiptId)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await receipts.redeliver(receiptId)).toBe('not_failed');
    expect(await receipts.list({ failed: true })).toEqual([]);
  });

  it('stores a payload with lone surrogates (MySQL refuses them) as well-formed text', async () => {
    const raw = Buffer.from('{"comment":{"body":"/qa \\ud800 check"}}');
    const { outcome, receiptId } = await receiptsWith().record(delivery({ deliveryId: 'surrogate', event: 'issue_comment', rawBody: raw, payload: JSON.parse(raw.toString()) as Record<string, unknown> }));

    expect(outcome).toBe('accepted');
    expect((await stored(receiptId)).payload).toEqual({ comment: { body: '/qa \ufffd check' } });
  });

  it('stores a payload nested deeper than MariaDB\'s JSON takes, cut at that depth, instead of failing the insert', async () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 40; level++) deep = { child: deep };
    const raw = Buffer.from(JSON.stringify(deep));

    const { outcome, receiptId } = await receiptsWith().record(delivery({ deliveryId: 'deep', rawBody: raw, payload: deep as Record<string, unknown> }));

    expect(outcome).toBe('accepted');
    expect(JSON.stringify((await stored(receiptId)).payload)).toContain(JSON.stringify(TOO_DEEP));
  });
});
