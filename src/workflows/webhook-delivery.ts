import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import type { WebhookProvider } from '../core/webhook-receipt.js';
import { defineQueueJob, type QueueJobDefinition, type QueueRunContext } from '../queue/index.js';
import { WEBHOOK_DELIVERY_JOB, webhookDeliveryPayload } from './webhook-delivery-starter.js';
import type { ClaimedReceipt, WebhookReceipts } from '../jobs/webhooks/webhook-receipts.js';

/** Does what one provider's delivery asks; throws to have the receipt retried with back-off. */
export type DeliveryHandler = (receipt: ClaimedReceipt, context: QueueRunContext) => Promise<void>;

export type DeliveryHandlers = Partial<Record<WebhookProvider, DeliveryHandler>>;

/** The periodic queue job that queues again what is due (`webhookSweepJob`). */
export const WEBHOOK_SWEEP_JOB = 'webhook-receipt-sweep';

/** How often the sweep runs unless told (WEBHOOK_SWEEP_INTERVAL_MS). */
export const WEBHOOK_SWEEP_EVERY_MS = 60_000;

const webhookSweepPayload = z.object({});

/** A lease owner token: which process took the receipt, and a nonce so two claims by one process differ. */
function leaseOwner(): string {
  return `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Processes one stored receipt: takes its lease (or does nothing: it is done, or another worker holds it), runs its
 * provider's handler, completes it. A handler's failure is recorded on the receipt (`failed` with a back-off, then
 * `dead`), not thrown: the sweep retries receipts, so a queue retry would only run it twice.
 */
export function webhookDeliveryJob({ receipts, handlers, telemetry = NO_TELEMETRY }: { receipts: WebhookReceipts; handlers: DeliveryHandlers; telemetry?: Telemetry }): QueueJobDefinition<typeof webhookDeliveryPayload> {
  return defineQueueJob({
    name: WEBHOOK_DELIVERY_JOB,
    payload: webhookDeliveryPayload,
    light: true,
    async handle({ receiptId }, context) {
      const owner = leaseOwner();
      const receipt = await receipts.claim(receiptId, owner);
      if (!receipt) {
        context.logger.info({ receiptId }, 'webhook receipt not taken: done already, or another worker holds its lease');
        return;
      }
      const logger = context.logger.child({ receiptId, provider: receipt.provider, deliveryId: receipt.deliveryId, event: receipt.event, attempt: receipt.attempts });
      const handler = handlers[receipt.provider];
      try {
        if (handler) await handler(receipt, { ...context, logger });
        else logger.warn('no handler for this provider in this process; the delivery is recorded and completed');
      } catch (error) {
        const state = await receipts.fail(receipt.id, owner, error instanceof Error ? error.message : String(error));
        if (state !== 'lost') telemetry.webhookFailure(receipt.provider, state === 'dead');
        logger.warn({ err: error, state }, state === 'dead' ? 'webhook delivery failed for the last time; left for an operator (qa webhooks list --failed)' : 'webhook delivery failed; it will be retried');
        return;
      }
      if (!(await receipts.complete(receipt.id, owner))) logger.warn('webhook delivery processed, but its lease was taken over before it completed');
    },
  });
}

/** Periodic: queues again failed receipts past their back-off, expired leases and pending receipts that lost their job. */
export function webhookSweepJob({ receipts, everyMs = WEBHOOK_SWEEP_EVERY_MS }: { receipts: WebhookReceipts; everyMs?: number }): QueueJobDefinition<typeof webhookSweepPayload> {
  return defineQueueJob({
    name: WEBHOOK_SWEEP_JOB,
    payload: webhookSweepPayload,
    light: true,
    concurrency: 1,
    // One repeating queue job for all processes: the interval of the process that started last is the one kept.
    repeatEveryMs: everyMs,
    async handle(_payload, context) {
      const { requeued } = await receipts.sweep();
      if (requeued > 0) context.logger.info({ requeued }, 'webhook receipts queued again');
    },
  });
}
