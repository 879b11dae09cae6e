/**
 * What the service reads of an identity provider's delivery (docs/people.md, "Identity webhooks"): the envelope
 * `{id, event, data, created_at}` (`event` is `<object>.<action>`) and, per event, the object in `data` (WorkOS-style shapes; other fields are ignored).
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
  // Providers send more than the directory keeps (`dsync.user.created`, `session.created`): stored, then ignored.
  event: z.string().max(64).regex(/^[a-z_]{1,40}(?:\.[a-z_]{1,40}){1,3}$/, { error: 'must be <object>.<action>' }),
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

/** What a deletion must carry at least: the id (and its `updated_at` when it has one). */
const deletedObject = z.object({ id: providerId, updated_at: timestamp.optional() });

/**
 * `data` read by its object's schema; a deletion whose object is incomplete is still read, by its id alone (its
 * fields then take empty defaults), because refusing it would leave a removed person with access while the provider
 * retried in vain. Upserts must be whole.
 */
function readObject<Schema extends z.ZodType<{ id: string; updated_at: Date }>>(
  schema: Schema,
  data: Record<string, unknown>,
  kind: DirectoryChangeKind,
  deliveredAt: Date,
): { whole: z.output<Schema> | null; id: string; updatedAt: Date } {
  if (kind === 'upsert') {
    const whole = schema.parse(data);
    return { whole, id: whole.id, updatedAt: whole.updated_at };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { whole: parsed.data, id: parsed.data.id, updatedAt: parsed.data.updated_at };
  const minimal = deletedObject.parse(data);
  return { whole: null, id: minimal.id, updatedAt: minimal.updated_at ?? deliveredAt };
}

/**
 * The directory change an envelope asks for: null for an event the directory does not keep; a `ZodError` (thrown)
 * for a known event whose `data` is not its object (a deletion needs only its id).
 */
export function directoryChangeOf(envelope: IdentityEnvelope): DirectoryChange | null {
  if (!isIdentityEvent(envelope.event)) return null;
  const [object, action] = envelope.event.split('.') as [string, string];
  const kind: DirectoryChangeKind = action === 'deleted' ? 'delete' : 'upsert';
  const read = <Schema extends z.ZodType<{ id: string; updated_at: Date }>>(schema: Schema) => {
    const found = readObject(schema, envelope.data, kind, envelope.created_at);
    const version: DirectoryVersion = { updatedAt: found.updatedAt, deliveryCreatedAt: envelope.created_at, eventId: envelope.id };
    return { ...found, version };
  };
  switch (object) {
    case 'user': {
      const { whole, id, version } = read(userData);
      const fields = whole ? { email: whole.email ?? null, emailVerified: whole.email_verified ?? false, name: displayName(whole) } : { email: null, emailVerified: false, name: null };
      return { table: 'user', id, kind, version, fields };
    }
    case 'organization': {
      const { whole, id, version } = read(organizationData);
      return { table: 'organization', id, kind, version, fields: { name: whole?.name ?? '', externalId: whole?.external_id ?? null } };
    }
    case 'organization_membership': {
      const { whole, id, version } = read(membershipData);
      const fields = whole
        ? { userId: whole.user_id, organizationId: whole.organization_id, status: whole.status, role: whole.role }
        : { userId: '', organizationId: '', status: 'inactive', role: 'member' };
      return { table: 'membership', id, kind, version, fields };
    }
    case 'invitation': {
      const { whole, id, version } = read(invitationData);
      return {
        table: 'invitation', id, kind: 'upsert', version,
        fields: { organizationId: whole!.organization_id ?? null, email: whole!.email, state: INVITATION_STATES[action]!, expiresAt: whole!.expires_at ?? null },
      };
    }
    default: {
      const { whole, id, version } = read(connectionData);
      const state = action === 'activated' ? 'active' : 'inactive';
      return { table: 'connection', id, kind, version, fields: { organizationId: whole?.organization_id ?? '', state, domains: [...new Set(whole?.domains ?? [])].sort() } };
    }
  }
}
