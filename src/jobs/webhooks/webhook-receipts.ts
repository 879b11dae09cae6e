import { createHash, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  MAX_RECEIPT_ATTEMPTS, PENDING_GRACE_MS, RECEIPT_LEASE_MS, redeliveryOf, retryDelayMs, type ReceiptStatus, type WebhookProvider,
} from '../../core/webhook-receipt.js';
import { storableJson } from '../../core/storable-json.js';
import { isDuplicateKey } from '../../store/duplicate-key.js';
import { WebhookReceipt } from '../../store/entities/webhook-receipt.entity.js';
import { insertRows, type StagedWorkflow, type WriteBatch } from '../../store/write-batch.js';

/** A verified delivery, as the endpoint read it. */
export interface WebhookDelivery {
  provider: WebhookProvider;
  deliveryId: string;
  event: string;
  rawBody: Buffer;
  payload: Record<string, unknown>;
}

/** Queues the processing of a receipt (the `webhook-delivery` queue job). */
export interface WebhookDeliveryStarter {
  /** Staged for the transaction that stores the receipt. */
  stage(receiptId: string): StagedWorkflow;
  /** Queued on its own, for a receipt that is already stored (taken again). */
  enqueue(receiptId: string): Promise<void>;
}

export type RecordOutcome =
  /** Stored now, its processing queued in the same commit. */
  | 'accepted'
  /** Stored before and failed, dead or abandoned: queued again. */
  | 'requeued'
  /** Stored before, completed or still queued: nothing to do. */
  | 'duplicate'
  /** Stored before and being processed under a live lease: left alone. */
  | 'in_progress'
  /** Stored before with another body: refused. */
  | 'conflict';

export interface ClaimedReceipt {
  id: string;
  provider: WebhookProvider;
  deliveryId: string;
  event: string;
  payload: Record<string, unknown>;
  attempts: number;
}

const MAX_DELIVERY_ID = 100;
const MAX_EVENT = 64;
const MAX_ERROR = 1000;

export interface WebhookReceiptsDeps {
  dataSource: DataSource;
  writes: WriteBatch;
  starter: WebhookDeliveryStarter;
  now?: () => Date;
  leaseMs?: number;
}

/** Durable receipts of webhook deliveries (src/core/webhook-receipt.ts has the rules). */
export function createWebhookReceipts({ dataSource, writes, starter, now = () => new Date(), leaseMs = RECEIPT_LEASE_MS }: WebhookReceiptsDeps) {
  const receipts = () => dataSource.getRepository(WebhookReceipt);

  /** Moves a receipt from one of `from` to pending and queues it; false if another process moved it first. */
  async function requeue(id: string, from: ReceiptStatus[], extra: { resetAttempts?: boolean; leaseExpiredBefore?: Date } = {}): Promise<boolean> {
    const query = receipts()
      .createQueryBuilder()
      .update()
      .set({ status: 'pending', leaseOwner: null, leaseExpiresAt: null, nextAttemptAt: null, updatedAt: now(), ...(extra.resetAttempts ? { attempts: 0 } : {}) })
      .where('id = :id', { id });
    if (extra.leaseExpiredBefore) {
      query.andWhere('(status IN (:...from) OR (status = :processing AND lease_expires_at < :expired))', { from, processing: 'processing', expired: extra.leaseExpiredBefore });
    } else {
      query.andWhere('status IN (:...from)', { from });
    }
    const { affected } = await query.execute();
    if (affected !== 1) return false;
    // Not in the update's transaction: a crash between the two leaves a pending receipt the sweep queues again.
    await starter.enqueue(id);
    return true;
  }

  return {
    /** Stores a delivery and queues its processing in one commit, or says what its earlier copy came to. */
    async record(delivery: WebhookDelivery): Promise<{ outcome: RecordOutcome; receiptId: string }> {
      if (delivery.deliveryId.length === 0 || delivery.deliveryId.length > MAX_DELIVERY_ID || delivery.event.length > MAX_EVENT) {
        throw new RangeError('webhook delivery id or event name out of bounds');
      }
      const bodySha256 = createHash('sha256').update(delivery.rawBody).digest('hex');
      const id = randomUUID();
      const at = now();
      const staged = starter.stage(id);
      const row = {
        id, provider: delivery.provider, deliveryId: delivery.deliveryId, event: delivery.event, bodySha256,
        payload: storableJson(delivery.payload), status: 'pending', attempts: 0, receivedAt: at, updatedAt: at,
      };
      try {
        await writes.commit([insertRows(dataSource, WebhookReceipt, [row]), staged.statement]);
        await staged.announce();
        return { outcome: 'accepted', receiptId: id };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      // Only what the decision reads: the payload of a large delivery would be read back and parsed for nothing.
      const stored = await receipts().findOneOrFail({
        select: { id: true, status: true, bodySha256: true, leaseExpiresAt: true },
        where: { provider: delivery.provider, deliveryId: delivery.deliveryId },
      });
      const decision = redeliveryOf({ status: stored.status as ReceiptStatus, bodySha256: stored.bodySha256, leaseExpiresAt: stored.leaseExpiresAt }, bodySha256, now());
      if (decision !== 'requeue') return { outcome: decision, receiptId: stored.id };
      // A provider's redelivery of a dead receipt starts its attempts again, as an operator's would.
      const requeued = await requeue(stored.id, ['failed', 'dead'], { resetAttempts: stored.status === 'dead', leaseExpiredBefore: now() });
      return { outcome: requeued ? 'requeued' : 'in_progress', receiptId: stored.id };
    },

    /**
     * Takes a receipt for processing under a lease held by `owner`: a pending or failed one, or one whose lease
     * expired (its worker died). Null when another holds it, it is done, or it does not exist.
     */
    async claim(id: string, owner: string): Promise<ClaimedReceipt | null> {
      const at = now();
      const { affected } = await receipts()
        .createQueryBuilder()
        .update()
        .set({ status: 'processing', leaseOwner: owner, leaseExpiresAt: new Date(at.getTime() + leaseMs), attempts: () => 'attempts + 1', updatedAt: at })
        .where('id = :id', { id })
        .andWhere('(status IN (:...open) OR (status = :processing AND lease_expires_at < :at))', { open: ['pending', 'failed'], processing: 'processing', at })
        .execute();
      if (affected !== 1) return null;
      const receipt = await receipts().findOneByOrFail({ id });
      if (receipt.leaseOwner !== owner) return null;
      const { provider, deliveryId, event, payload, attempts } = receipt;
      return { id, provider: provider as WebhookProvider, deliveryId, event, payload, attempts };
    },

    /** Marks the receipt done; false (and nothing written) unless `owner` still holds its lease. */
    async complete(id: string, owner: string): Promise<boolean> {
      const at = now();
      const { affected } = await receipts()
        .createQueryBuilder()
        .update()
        .set({ status: 'completed', completedAt: at, updatedAt: at, leaseOwner: null, leaseExpiresAt: null, lastError: null })
        .where('id = :id AND status = :processing AND lease_owner = :owner', { id, processing: 'processing', owner })
        .execute();
      return affected === 1;
    },

    /**
     * Records a failed attempt by the lease holder: `failed` with the back-off's next attempt, or `dead` after
     * MAX_RECEIPT_ATTEMPTS; `lost` if `owner` no longer holds the lease (another took it over).
     */
    async fail(id: string, owner: string, reason: string): Promise<'failed' | 'dead' | 'lost'> {
      const receipt = await receipts().findOneBy({ id });
      if (!receipt || receipt.status !== 'processing' || receipt.leaseOwner !== owner) return 'lost';
      const at = now();
      const dead = receipt.attempts >= MAX_RECEIPT_ATTEMPTS;
      const { affected } = await receipts()
        .createQueryBuilder()
        .update()
        .set({
          status: dead ? 'dead' : 'failed', lastError: reason.slice(0, MAX_ERROR), leaseOwner: null, leaseExpiresAt: null, updatedAt: at,
          nextAttemptAt: dead ? null : new Date(at.getTime() + retryDelayMs(receipt.attempts)),
        })
        .where('id = :id AND status = :processing AND lease_owner = :owner', { id, processing: 'processing', owner })
        .execute();
      if (affected !== 1) return 'lost';
      return dead ? 'dead' : 'failed';
    },

    /**
     * Queues again, at most `limit` at a time: failed receipts whose back-off is over, receipts whose lease expired
     * (their worker died), and pending ones no queue job took within PENDING_GRACE_MS. Run periodically.
     */
    async sweep(limit = 100): Promise<{ requeued: number }> {
      const at = now();
      const due = await receipts()
        .createQueryBuilder('receipt')
        .select(['receipt.id', 'receipt.status'])
        .where('(receipt.status = :failed AND receipt.next_attempt_at <= :at)', { failed: 'failed', at })
        .orWhere('(receipt.status = :processing AND receipt.lease_expires_at < :at)', { processing: 'processing' })
        .orWhere('(receipt.status = :pending AND receipt.updated_at < :stale)', { pending: 'pending', stale: new Date(at.getTime() - PENDING_GRACE_MS) })
        .orderBy('receipt.updated_at', 'ASC')
        .take(limit)
        .getMany();
      let requeued = 0;
      for (const receipt of due) {
        if (receipt.status === 'pending') {
          // Still pending: only its queue job is missing; touch it so the next sweep waits its grace again.
          const { affected } = await receipts().update({ id: receipt.id, status: 'pending' }, { updatedAt: at });
          if (affected === 1) {
            await starter.enqueue(receipt.id);
            requeued += 1;
          }
        } else if (await requeue(receipt.id, ['failed'], { leaseExpiredBefore: at })) {
          requeued += 1;
        }
      }
      return { requeued };
    },

    /** Receipts for an operator, newest first: all, or only `failed` and `dead` ones. */
    async list(options: { failed?: boolean; limit?: number } = {}): Promise<WebhookReceipt[]> {
      return receipts().find({
        select: { id: true, provider: true, deliveryId: true, event: true, status: true, attempts: true, lastError: true, receivedAt: true, updatedAt: true, nextAttemptAt: true, completedAt: true },
        where: options.failed ? [{ status: 'failed' }, { status: 'dead' }] : {},
        order: { receivedAt: 'DESC' },
        take: Math.min(Math.max(options.limit ?? 50, 1), 500),
      });
    },

    /** An operator's redelivery of a failed or dead receipt (by id or delivery id): queued again with fresh attempts. */
    async redeliver(idOrDeliveryId: string): Promise<'requeued' | 'not_failed' | 'not_found'> {
      const receipt = (await receipts().findOneBy({ id: idOrDeliveryId })) ?? (await receipts().findOneBy({ deliveryId: idOrDeliveryId }));
      if (!receipt) return 'not_found';
      return (await requeue(receipt.id, ['failed', 'dead'], { resetAttempts: true })) ? 'requeued' : 'not_failed';
    },
  };
}

export type WebhookReceipts = ReturnType<typeof createWebhookReceipts>;
