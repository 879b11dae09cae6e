/**
 * Identity-provider webhook deliveries as the provider sends them (docs/people.md, "Identity webhooks"): a JSON body
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

type Time = Date | string;
const iso = (time: Time) => (typeof time === 'string' ? time : time.toISOString());

/** The `data` objects of the events the access directory keeps, WorkOS-style, with what a test usually leaves out filled in. */
export const identityObjects = {
  user: (id: string, updatedAt: Time, fields: { email?: string | null; name?: string; email_verified?: boolean } = {}) => ({
    object: 'user', id, email: `${id}@example.test`, email_verified: true, ...fields, updated_at: iso(updatedAt),
  }),
  organization: (id: string, updatedAt: Time, fields: { name?: string; external_id?: string | null } = {}) => ({
    object: 'organization', id, name: id, ...fields, updated_at: iso(updatedAt),
  }),
  membership: (
    id: string,
    updatedAt: Time,
    fields: { user_id: string; organization_id: string; status?: 'active' | 'pending' | 'inactive'; role?: 'admin' | 'member' },
  ) => ({
    object: 'organization_membership', id, user_id: fields.user_id, organization_id: fields.organization_id, status: fields.status ?? 'active',
    role: { slug: fields.role ?? 'member' }, updated_at: iso(updatedAt),
  }),
  invitation: (id: string, updatedAt: Time, fields: { email: string; organization_id?: string; expires_at?: string }) => ({
    object: 'invitation', id, ...fields, updated_at: iso(updatedAt),
  }),
  connection: (id: string, updatedAt: Time, fields: { organization_id: string; domains: string[] }) => ({
    object: 'connection', id, organization_id: fields.organization_id, connection_type: 'GenericSAML',
    domains: fields.domains.map((domain, index) => ({ object: 'connection_domain', id: `${id}_domain_${index}`, domain })), updated_at: iso(updatedAt),
  }),
};
