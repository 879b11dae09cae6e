/**
 * The rules of a durable webhook receipt (spec 2.5, 6.2, 8): every delivery is stored before it is acknowledged;
 * processing holds a ten-minute lease; a completed duplicate is ignored, a live lease is left alone, and failed or
 * expired work is taken again, so a provider's redelivery never loses an event.
 *
 *   pending ──claim──► processing ──complete──► completed
 *      ▲                  │ fail / lease expires
 *      └──requeue──── failed ──(MAX_RECEIPT_ATTEMPTS)──► dead ──redeliver (operator or provider)──► pending
 */
import type { z } from 'zod';
import { AppError, ErrorCode } from './errors.js';

export type ReceiptStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'dead';

export type WebhookProvider = 'codehost' | 'identity';

/** Spec section 8: the work lease of a webhook receipt. */
export const RECEIPT_LEASE_MS = 10 * 60_000;

/** Claims after which a failing receipt is left for an operator (`qa webhooks list --failed`, `qa webhooks redeliver`). */
export const MAX_RECEIPT_ATTEMPTS = 6;

/** A pending receipt whose queue job has not taken it for this long is queued again by the sweep (the job was lost). */
export const PENDING_GRACE_MS = 2 * 60_000;

/** Back-off before the sweep queues a failed receipt again: 30 s, 1 min, 2 min, … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

export interface StoredReceiptState {
  status: ReceiptStatus;
  bodySha256: string;
  leaseExpiresAt: Date | null;
}

/**
 * What a delivery whose (provider, delivery id) is already stored comes to:
 * - `conflict`: other bytes under the same delivery id: refused (a replay with a forged body, or a provider bug);
 * - `duplicate`: completed, or pending (its queue job will run): acknowledged, nothing more;
 * - `in_progress`: a live lease: acknowledged and left alone;
 * - `requeue`: failed, dead, or a lease that expired: taken again.
 */
export function redeliveryOf(stored: StoredReceiptState, bodySha256: string, now: Date): 'conflict' | 'duplicate' | 'in_progress' | 'requeue' {
  if (stored.bodySha256 !== bodySha256) return 'conflict';
  switch (stored.status) {
    case 'completed':
    case 'pending':
      return 'duplicate';
    case 'processing':
      return stored.leaseExpiresAt !== null && stored.leaseExpiresAt.getTime() > now.getTime() ? 'in_progress' : 'requeue';
    case 'failed':
    case 'dead':
      return 'requeue';
  }
}

/**
 * A delivery whose payload does not have the shape its event's handler reads: `webhook.payload_invalid`, naming the
 * first field zod found wrong. The receipt fails (and, retried to no avail, ends dead for an operator).
 */
export function webhookPayloadInvalid(event: string, error: z.ZodError): AppError {
  const where = error.issues[0];
  return new AppError({
    kind: 'user',
    code: ErrorCode.WebhookPayloadInvalid,
    message: `The ${event} delivery is not a payload this service understands: ${where ? `${where.path.join('.') || 'body'} ${where.message}` : 'wrong shape'}`,
    details: { event },
  });
}
