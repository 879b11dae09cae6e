import express, { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../core/errors.js';
import { directoryChangeOf, identityEnvelope } from '../../core/identity-events.js';
import { DELIVERY_ID, header, jsonObject, refused, storeDelivery, type DeliveryRecorder } from '../delivery-intake.js';
import { identitySignatureMatches, parseIdentitySignature, signatureFresh } from './identity-signature.js';

export interface IdentityReceiverOptions {
  /** The current signing secret first, then one being rotated out. */
  secrets: readonly [string, ...string[]];
  /** Bodies over this are refused with 413 before anything else (Express's size syntax, e.g. `256kb`). */
  bodyLimit: string;
  logger: { warn(object: Record<string, unknown>, message: string): void };
  now?: () => Date;
}

/** The identity provider's webhook headers (spec 4.5, 5). */
export const IDENTITY_HEADERS = { signature: 'x-identity-signature', delivery: 'x-identity-delivery-id' } as const;


function bodyInvalid(error: z.ZodError): AppError {
  const where = error.issues[0];
  const field = where ? where.path.join('.') || 'body' : 'body';
  return refused(ErrorCode.WebhookBodyInvalid, 400, `The delivery body is not an identity event: ${field} ${where?.message ?? 'has the wrong shape'}`, { field });
}

/**
 * `POST /api/webhooks/identity`: the signature (`t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, any `v1`
 * under any secret) and its freshness (5 minutes either way) checked over the raw bytes, the delivery id header
 * checked, the body read as `{id, event, data, created_at}` (and, for an event the directory keeps, its object), and
 * the delivery stored as a durable receipt with its processing queued; 202 only after that commit. Every refusal is
 * a coded error before anything is stored.
 */
export function identityReceiver(receipts: DeliveryRecorder, options: IdentityReceiverOptions): Router {
  const now = options.now ?? (() => new Date());
  const receive: RequestHandler = async (req, res, next) => {
    try {
      const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signatureHeader = header(req.headers[IDENTITY_HEADERS.signature]);
      if (!signatureHeader) throw refused(ErrorCode.WebhookSignatureMissing, 401, `The delivery is not signed: ${IDENTITY_HEADERS.signature} is required`);
      const signature = parseIdentitySignature(signatureHeader);
      if (!signature || !identitySignatureMatches(signature, raw, options.secrets)) {
        throw refused(ErrorCode.WebhookSignatureInvalid, 401, 'The delivery signature does not match its body');
      }
      if (!signatureFresh(signature, now())) {
        throw refused(ErrorCode.WebhookSignatureStale, 401, "The delivery's signature time is more than 5 minutes from the server's clock; check both clocks");
      }
      const deliveryId = header(req.headers[IDENTITY_HEADERS.delivery]);
      if (deliveryId === undefined || deliveryId === '') {
        throw refused(ErrorCode.WebhookHeaderMissing, 400, `The ${IDENTITY_HEADERS.delivery} header is required`, { header: IDENTITY_HEADERS.delivery });
      }
      if (!DELIVERY_ID.test(deliveryId)) throw refused(ErrorCode.WebhookHeaderInvalid, 400, `The ${IDENTITY_HEADERS.delivery} header is not valid`, { header: IDENTITY_HEADERS.delivery });
      const payload = jsonObject(raw);
      const envelope = identityEnvelope.safeParse(payload);
      if (!envelope.success) throw bodyInvalid(envelope.error);
      try {
        directoryChangeOf(envelope.data);
      } catch (error) {
        if (error instanceof z.ZodError) throw bodyInvalid(new z.ZodError(error.issues.map((issue) => ({ ...issue, path: ['data', ...issue.path] }))));
        throw error;
      }
      await storeDelivery(receipts, options.logger, { provider: 'identity', deliveryId, event: envelope.data.event, rawBody: raw, payload }, res);
    } catch (error) {
      next(error);
    }
  };
  return Router().post('/', express.raw({ type: () => true, limit: options.bodyLimit }), receive);
}
