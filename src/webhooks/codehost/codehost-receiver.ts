import { verifyWithFallback } from '@octokit/webhooks-methods';
import express, { Router, type RequestHandler } from 'express';
import { ErrorCode } from '../../core/errors.js';
import { DELIVERY_ID, header, jsonObject, refused, requiredHeader, storeDelivery, type DeliveryRecorder } from '../delivery-intake.js';

export interface CodehostReceiverOptions {
  /** The current webhook secret first, then one being rotated out. */
  secrets: readonly [string, ...string[]];
  /** Bodies over this are refused with 413 before anything else (Express's size syntax, e.g. `1mb`). */
  bodyLimit: string;
  logger: { warn(object: Record<string, unknown>, message: string): void };
}

/** GitHub's webhook header names, renamed (spec 4.5, 5). */
export const CODEHOST_HEADERS = { signature: 'x-codehost-signature-256', event: 'x-codehost-event', delivery: 'x-codehost-delivery' } as const;

const EVENT_NAME = /^[a-z_]{1,64}$/;

/**
 * `POST /api/webhooks/codehost`: the raw body's `sha256=` HMAC checked with Octokit's verifier against each secret
 * (constant time), the event and delivery headers checked, the JSON read, and the delivery stored as a durable receipt
 * with its processing queued; 202 only after that commit. Every refusal is a coded error before anything is stored.
 */
export function codehostReceiver(receipts: DeliveryRecorder, options: CodehostReceiverOptions): Router {
  const [secret, ...additionalSecrets] = options.secrets;
  const receive: RequestHandler = async (req, res, next) => {
    try {
      const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = header(req.headers[CODEHOST_HEADERS.signature]);
      if (!signature) throw refused(ErrorCode.WebhookSignatureMissing, 401, `The delivery is not signed: ${CODEHOST_HEADERS.signature} is required`);
      // Octokit's verifier throws on an empty payload; no delivery has one.
      if (raw.length === 0) throw refused(ErrorCode.RequestInvalidJson, 400, 'The body is empty');
      if (!(await verified(secret, raw, signature, additionalSecrets))) {
        throw refused(ErrorCode.WebhookSignatureInvalid, 401, 'The delivery signature does not match its body');
      }
      const event = requiredHeader(req.headers[CODEHOST_HEADERS.event], CODEHOST_HEADERS.event, EVENT_NAME);
      const deliveryId = requiredHeader(req.headers[CODEHOST_HEADERS.delivery], CODEHOST_HEADERS.delivery, DELIVERY_ID);
      const payload = jsonObject(raw);
      await storeDelivery(receipts, options.logger, { provider: 'codehost', deliveryId, event, rawBody: raw, payload }, res);
    } catch (error) {
      next(error);
    }
  };
  return Router().post('/', express.raw({ type: () => true, limit: options.bodyLimit }), receive);
}

/** Octokit's constant-time check against each secret in turn; a malformed signature is a mismatch, not a fault. */
async function verified(secret: string, raw: Buffer, signature: string, additionalSecrets: string[]): Promise<boolean> {
  try {
    return await verifyWithFallback(secret, raw.toString('utf8'), signature, additionalSecrets);
  } catch {
    return false;
  }
}
