/**
 * Identity-provider webhook deliveries as the provider sends them (README "Identity webhooks"): a JSON body
 * `{id, event, data, created_at}`, signed `x-identity-signature: t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
 * with the delivery id in `x-identity-delivery-id`. Used by the receiver's tests and by fake identity providers.
 */
import { createHmac, randomUUID } from 'node:crypto';

export const IDENTITY_SIGNATURE_HEADER = 'x-identity-signature';
export const IDENTITY_DELIVERY_HEADER = 'x-identity-delivery-id';

export interface IdentityEventBody {
  id: string;
  event: string;
  data: Record<string, unknown>;
  created_at: string;
}

/** The `v1` of one secret: hex HMAC-SHA256 of `<t>.<raw body>`. */
export function identitySignatureV1(secret: string, body: string, t: number): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

/** The whole `x-identity-signature` value: one `v1` per secret (a provider rotating its secret signs with both). */
export function signIdentityDelivery(secret: string | readonly string[], body: string, t: number): string {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return [`t=${t}`, ...secrets.map((one) => `v1=${identitySignatureV1(one, body, t)}`)].join(',');
}

/** A delivery body; `id` (also the default delivery id) and `created_at` are made up unless given. */
export function identityEvent(event: string, data: Record<string, unknown>, options: { id?: string; createdAt?: Date | string } = {}): IdentityEventBody {
  const createdAt = options.createdAt ?? new Date();
  return { id: options.id ?? `event_${randomUUID()}`, event, data, created_at: typeof createdAt === 'string' ? createdAt : createdAt.toISOString() };
}

export interface SendIdentityDeliveryOptions {
  secret: string | readonly string[];
  /** Defaults to the body's `id` (a provider's redelivery keeps it). */
  deliveryId?: string;
  /** Signing time in unix ms; defaults to now. */
  t?: number;
  headers?: Record<string, string>;
}

/** Posts a signed delivery to `url` (the service's `/api/webhooks/identity`); `body` is sent as given when a string. */
export async function sendIdentityDelivery(url: string, body: IdentityEventBody | string, options: SendIdentityDeliveryOptions): Promise<Response> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const deliveryId = options.deliveryId ?? (typeof body === 'string' ? randomUUID() : body.id);
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_SIGNATURE_HEADER]: signIdentityDelivery(options.secret, raw, options.t ?? Date.now()),
      [IDENTITY_DELIVERY_HEADER]: deliveryId,
      ...options.headers,
    },
    body: raw,
  });
}
