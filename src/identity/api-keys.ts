import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { IsNull, type DataSource } from 'typeorm';
import { ErrorCode, userError } from '../core/errors.js';
import { apiKeyPrincipal, type MachinePrincipal } from '../core/principal.js';
import { ApiKey } from '../store/entities/api-key.entity.js';
import { Organization } from '../store/entities/organization.entity.js';
import { readDate } from '../store/raw-values.js';

/** `qa_<prefix>_<secret>`: 6 random bytes of public prefix (hex), 32 random bytes of secret (base64url). */
const KEY_FORMAT = /^qa_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
const ORGANIZATION_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** `last_used_at` is written at most this often per key, so authentication is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface CreatedApiKey {
  /** The full key. It is not stored anywhere: show it to the user once. */
  key: string;
  prefix: string;
  organization: Organization;
  /** What the key authenticates as. */
  principal: MachinePrincipal;
}

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

async function findOrCreateOrganization(dataSource: DataSource, slug: string): Promise<Organization> {
  // Insert-or-ignore then read: two concurrent callers for a new slug end up with the same organization.
  await dataSource
    .createQueryBuilder()
    .insert()
    .into(Organization)
    .values({ id: randomUUID(), slug, name: slug })
    .orIgnore()
    .execute();
  return dataSource.getRepository(Organization).findOneByOrFail({ slug });
}

/** Issues a key for the organization `orgSlug`, creating the organization (named after its slug) if needed. */
export async function createApiKey(dataSource: DataSource, orgSlug: string, label?: string): Promise<CreatedApiKey> {
  if (!ORGANIZATION_SLUG.test(orgSlug)) {
    throw userError(
      ErrorCode.OrganizationInvalidSlug,
      `Invalid organization slug ${JSON.stringify(orgSlug)}: use 1 to 64 lowercase letters, digits and inner hyphens`,
    );
  }
  return issueApiKey(dataSource, await findOrCreateOrganization(dataSource, orgSlug), label ?? null, null);
}

/** A new key of an existing organization; `createdBy` is who asked (`actorName`), null for the operator's CLI. */
export async function issueApiKey(dataSource: DataSource, organization: Organization, label: string | null, createdBy: string | null): Promise<CreatedApiKey> {
  const prefix = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const id = randomUUID();
  await dataSource.getRepository(ApiKey).insert({
    id,
    organizationId: organization.id,
    prefix,
    secretHash: sha256(secret).toString('hex'),
    label,
    lastUsedAt: null,
    revokedAt: null,
    createdBy,
    revokedBy: null,
  });
  return { key: `qa_${prefix}_${secret}`, prefix, organization, principal: apiKeyPrincipal(organization.id, id) };
}

export interface VerifiedApiKey {
  apiKeyId: string;
  organization: Organization;
}

/**
 * The key and organization a presented key stands for, or null when the key is malformed, unknown, wrong or
 * revoked. The secret is compared as SHA-256 digests in constant time.
 */
export async function verifyApiKey(
  dataSource: DataSource,
  presentedKey: string,
  now: Date = new Date(),
): Promise<VerifiedApiKey | null> {
  const match = KEY_FORMAT.exec(presentedKey);
  if (match === null) return null;
  const [, prefix, secret] = match;

  // One raw query (no query builder, no entity hydration): this runs on every API request.
  const rows = (await dataSource.query(
    `SELECT k.id, k.secret_hash, k.revoked_at, k.last_used_at, o.id AS organization_id, o.slug, o.name, o.created_at
       FROM api_keys k JOIN organizations o ON o.id = k.organization_id
      WHERE k.prefix = ?`,
    [prefix],
  )) as KeyRow[];
  const apiKey = rows[0];
  const presented = sha256(secret);
  const stored = apiKey === undefined ? Buffer.alloc(presented.length) : Buffer.from(apiKey.secret_hash, 'hex');
  const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (apiKey === undefined || !matches || apiKey.revoked_at !== null) return null;

  const lastUsedAt = readDate(apiKey.last_used_at);
  if (lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await dataSource.getRepository(ApiKey).update({ id: apiKey.id }, { lastUsedAt: now });
  }
  const organization = Object.assign(new Organization(), {
    id: apiKey.organization_id,
    slug: apiKey.slug,
    name: apiKey.name,
    createdAt: readDate(apiKey.created_at)!,
  });
  return { apiKeyId: apiKey.id, organization };
}

/** The principal a presented key authenticates: a machine of the key's organization; null as for `verifyApiKey`. */
export async function authenticateApiKey(dataSource: DataSource, presentedKey: string, now?: Date): Promise<MachinePrincipal | null> {
  const verified = await verifyApiKey(dataSource, presentedKey, now);
  return verified && apiKeyPrincipal(verified.organization.id, verified.apiKeyId);
}

interface KeyRow {
  id: string;
  secret_hash: string;
  revoked_at: unknown;
  last_used_at: unknown;
  organization_id: string;
  slug: string;
  name: string;
  created_at: unknown;
}

/** Revokes the key with this prefix; false when there is no such key or it was already revoked. */
export async function revokeApiKey(dataSource: DataSource, prefix: string, now: Date = new Date()): Promise<boolean> {
  const result = await dataSource.getRepository(ApiKey).update({ prefix, revokedAt: IsNull() }, { revokedAt: now });
  return (result.affected ?? 0) > 0;
}

export interface ApiKeySummary {
  id: string;
  prefix: string;
  label: string | null;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}

/** An organization's keys, newest first; never a secret (only its hash is stored anyway). */
export async function listApiKeys(dataSource: DataSource, organizationId: string): Promise<ApiKeySummary[]> {
  const keys = await dataSource.getRepository(ApiKey).find({ where: { organizationId }, order: { createdAt: 'DESC' } });
  return keys.map(({ id, prefix, label, createdAt, createdBy, lastUsedAt, revokedAt, revokedBy }) => ({ id, prefix, label, createdAt, createdBy, lastUsedAt, revokedAt, revokedBy }));
}

/** Revokes the organization's key with this prefix; false when it has none such or it was already revoked. */
export async function revokeOrganizationApiKey(dataSource: DataSource, organizationId: string, prefix: string, revokedBy: string, now: Date = new Date()): Promise<boolean> {
  const result = await dataSource.getRepository(ApiKey).update({ organizationId, prefix, revokedAt: IsNull() }, { revokedAt: now, revokedBy });
  return (result.affected ?? 0) > 0;
}
