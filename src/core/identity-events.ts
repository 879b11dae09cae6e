/**
 * What the service reads of an identity provider's delivery (README "Identity webhooks"): the envelope
 * `{id, event, data, created_at}` and, per event, the object in `data` (WorkOS-style shapes; other fields are ignored).
 * Each known event becomes one `DirectoryChange` for the access directory; an event the directory does not keep is
 * `null` (completed without effect).
 */
import { z } from 'zod';
import type { DirectoryChangeKind, DirectoryVersion } from './directory-ordering.js';

const ID_MAX = 100;
const providerId = z.string().min(1).max(ID_MAX);
const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const email = z.string().min(3).max(320).regex(/^[^\s@]+@[^\s@]+$/, { error: 'must be an e-mail address' });

/** The delivery body, as signed. `event` names `<object>.<action>`. */
export const identityEnvelope = z.object({
  id: providerId,
  event: z.string().regex(/^[a-z_]{1,40}\.[a-z_]{1,23}$/, { error: 'must be <object>.<action>' }),
  data: z.record(z.string(), z.unknown()),
  created_at: timestamp,
});
export type IdentityEnvelope = z.infer<typeof identityEnvelope>;

const versioned = { id: providerId, updated_at: timestamp };

const userData = z.object({
  ...versioned,
  email: email.nullish(),
  email_verified: z.boolean().optional(),
  name: z.string().max(255).nullish(),
  first_name: z.string().max(255).nullish(),
  last_name: z.string().max(255).nullish(),
});

const organizationData = z.object({
  ...versioned,
  name: z.string().min(1).max(255),
  external_id: z.string().min(1).max(255).nullish(),
});

const roleSlug = z.enum(['admin', 'member']);
const membershipData = z.object({
  ...versioned,
  user_id: providerId,
  organization_id: providerId,
  status: z.enum(['active', 'pending', 'inactive']),
  // WorkOS sends `role: {slug}`; a bare slug is read too.
  role: z.union([roleSlug, z.object({ slug: roleSlug })]).transform((role) => (typeof role === 'string' ? role : role.slug)),
});

const invitationData = z.object({
  ...versioned,
  email,
  organization_id: providerId.nullish(),
  expires_at: timestamp.nullish(),
});

const domain = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$/, { error: 'must be a domain name' })
  .transform((value) => value.toLowerCase());
const connectionData = z.object({
  ...versioned,
  organization_id: providerId,
  // WorkOS sends `domains: [{id, domain}]`; bare names are read too.
  domains: z.array(z.union([domain, z.object({ domain })]).transform((entry) => (typeof entry === 'string' ? entry : entry.domain))).max(100).default([]),
});

interface ChangeBase {
  id: string;
  kind: DirectoryChangeKind;
  version: DirectoryVersion;
}

export type DirectoryChange =
  | (ChangeBase & { table: 'user'; fields: { email: string | null; emailVerified: boolean; name: string | null } })
  | (ChangeBase & { table: 'organization'; fields: { name: string; externalId: string | null } })
  | (ChangeBase & { table: 'membership'; fields: { userId: string; organizationId: string; status: string; role: string } })
  | (ChangeBase & { table: 'invitation'; fields: { organizationId: string | null; email: string; state: string; expiresAt: Date | null } })
  | (ChangeBase & { table: 'connection'; fields: { organizationId: string; state: string; domains: string[] } });

export type DirectoryTable = DirectoryChange['table'];

/** Every event the directory keeps, and what it does. */
export const IDENTITY_EVENTS = [
  'user.created', 'user.updated', 'user.deleted',
  'organization.created', 'organization.updated', 'organization.deleted',
  'organization_membership.created', 'organization_membership.updated', 'organization_membership.deleted',
  'invitation.created', 'invitation.accepted', 'invitation.revoked', 'invitation.expired',
  'connection.activated', 'connection.deactivated', 'connection.deleted',
] as const;
export type IdentityEventName = (typeof IDENTITY_EVENTS)[number];

const KNOWN: ReadonlySet<string> = new Set(IDENTITY_EVENTS);

export function isIdentityEvent(event: string): event is IdentityEventName {
  return KNOWN.has(event);
}

const INVITATION_STATES: Record<string, string> = { created: 'pending', accepted: 'accepted', revoked: 'revoked', expired: 'expired' };

function displayName(data: z.infer<typeof userData>): string | null {
  if (data.name) return data.name;
  const joined = [data.first_name, data.last_name].filter((part) => part).join(' ');
  return joined === '' ? null : joined.slice(0, 255);
}

/**
 * The directory change an envelope asks for: null for an event the directory does not keep; a `ZodError` (thrown)
 * for a known event whose `data` is not its object.
 */
export function directoryChangeOf(envelope: IdentityEnvelope): DirectoryChange | null {
  if (!isIdentityEvent(envelope.event)) return null;
  const [object, action] = envelope.event.split('.') as [string, string];
  const kind: DirectoryChangeKind = action === 'deleted' ? 'delete' : 'upsert';
  const version = (updatedAt: Date): DirectoryVersion => ({ updatedAt, deliveryCreatedAt: envelope.created_at, eventId: envelope.id });
  switch (object) {
    case 'user': {
      const data = userData.parse(envelope.data);
      return { table: 'user', id: data.id, kind, version: version(data.updated_at), fields: { email: data.email ?? null, emailVerified: data.email_verified ?? false, name: displayName(data) } };
    }
    case 'organization': {
      const data = organizationData.parse(envelope.data);
      return { table: 'organization', id: data.id, kind, version: version(data.updated_at), fields: { name: data.name, externalId: data.external_id ?? null } };
    }
    case 'organization_membership': {
      const data = membershipData.parse(envelope.data);
      return {
        table: 'membership', id: data.id, kind, version: version(data.updated_at),
        fields: { userId: data.user_id, organizationId: data.organization_id, status: data.status, role: data.role },
      };
    }
    case 'invitation': {
      const data = invitationData.parse(envelope.data);
      return {
        table: 'invitation', id: data.id, kind: 'upsert', version: version(data.updated_at),
        fields: { organizationId: data.organization_id ?? null, email: data.email, state: INVITATION_STATES[action]!, expiresAt: data.expires_at ?? null },
      };
    }
    default: {
      const data = connectionData.parse(envelope.data);
      return {
        table: 'connection', id: data.id, kind, version: version(data.updated_at),
        fields: { organizationId: data.organization_id, state: action === 'activated' ? 'active' : 'inactive', domains: [...new Set(data.domains)].sort() },
      };
    }
  }
}
