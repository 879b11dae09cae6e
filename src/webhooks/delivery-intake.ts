/**
 * What every signed webhook receiver does once the provider's own signature check has passed: read the headers and
 * the JSON body strictly, store the delivery as a durable receipt, and answer 202 only after that commit (a body
 * that differs from the one first stored under its delivery id is refused with 409). Every refusal is a coded error
 * raised before anything is stored.
 */
import type { Response } from 'express';
import { AppError, ErrorCode } from '../core/errors.js';
import type { RecordOutcome, WebhookDelivery } from '../jobs/webhooks/webhook-receipts.js';

/** What a receiver needs of the receipts: store a verified delivery and say what it came to. */
export interface DeliveryRecorder {
  record(delivery: WebhookDelivery): Promise<{ outcome: RecordOutcome; receiptId: string }>;
}

/** A provider's delivery id, as the receipts store it. */
export const DELIVERY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

export const refused = (code: ErrorCode, status: number, message: string, details?: Record<string, unknown>) =>
  new AppError({ kind: 'user', code, status, message, details });

export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A header that must be there and have `shape`: 400 `webhook.header_missing` or `webhook.header_invalid`. */
export function requiredHeader(value: string | string[] | undefined, name: string, shape: RegExp): string {
  const text = header(value);
  if (text === undefined || text === '') throw refused(ErrorCode.WebhookHeaderMissing, 400, `The ${name} header is required`, { header: name });
  if (!shape.test(text)) throw refused(ErrorCode.WebhookHeaderInvalid, 400, `The ${name} header is not valid`, { header: name });
  return text;
}

/** The body as a JSON object, or 400 `request.invalid_json` saying what is wrong with it. */
export function jsonObject(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) throw refused(ErrorCode.RequestInvalidJson, 400, 'The body is empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw refused(ErrorCode.RequestInvalidJson, 400, 'The body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw refused(ErrorCode.RequestInvalidJson, 400, 'The body is not a JSON object');
  return parsed as Record<string, unknown>;
}

/** Stores the delivery and answers 202 with what the receipt came to; a conflicting body is logged and refused. */
export async function storeDelivery(
  receipts: DeliveryRecorder,
  logger: { warn(object: Record<string, unknown>, message: string): void },
  delivery: WebhookDelivery,
  res: Response,
): Promise<void> {
  const { deliveryId, event, provider } = delivery;
  const { outcome, receiptId } = await receipts.record(delivery);
  if (outcome === 'conflict') {
    logger.warn({ deliveryId, event, receiptId }, `${provider} delivery refused: its id was received before with another body`);
    throw refused(ErrorCode.WebhookDeliveryConflict, 409, 'This delivery id was received before with another body; the first is kept');
  }
  res.status(202).json({ deliveryId, receipt: outcome });
}
