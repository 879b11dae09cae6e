import { createHash } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { isAppError } from '../../src/core/errors.js';
import { authenticateApiKey, createApiKey, revokeApiKey, verifyApiKey } from '../../src/identity/api-keys.js';
import { ApiKey } from '../../src/store/entities/api-key.entity.js';
import { Organization } from '../../src/store/entities/organization.entity.js';
import { forEachDialect, useTestStore } from '../support/dialects.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

forEachDialect('API keys', (dialect) => {
  const store = useTestStore(dialect);

  it('issues qa_<prefix>_<secret> once and stores only the SHA-256 of the secret', async () => {
    const created = await createApiKey(store(), 'acme', 'ci');

    const [, prefix, secret] = /^qa_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/.exec(created.key) ?? [];
    expect(prefix).toBe(created.prefix);
    const row = await store().getRepository(ApiKey).findOneByOrFail({ prefix });
    expect(row.secretHash).toBe(sha256Hex(secret as string));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row).toMatchObject({ label: 'ci', organizationId: created.organization.id, revokedAt: null });
    expect(row.createdAt).toBeInstanceOf(Date);
  });

  it('creates the organization on first use and reuses it afterwards', async () => {
    const first = await createApiKey(store(), 'acme');
    const second = await createApiKey(store(), 'acme');

    expect(second.organization.id).toBe(first.organization.id);
    expect(second.key).not.toBe(first.key);
    expect(await store().getRepository(Organization).countBy({ slug: 'acme' })).toBe(1);
    expect(first.organization).toMatchObject({ slug: 'acme', name: 'acme' });
  });

  it('verifies a key to its organization and records when it was used', async () => {
    const { key, organization, prefix } = await createApiKey(store(), 'acme');
    const now = new Date('2030-01-02T03:04:05.678Z');

    const verified = await verifyApiKey(store(), key, now);

    expect(verified?.organization.id).toBe(organization.id);
    expect(verified?.organization.slug).toBe('acme');
    const row = await store().getRepository(ApiKey).findOneByOrFail({ prefix });
    expect(verified?.apiKeyId).toBe(row.id);
    expect(await authenticateApiKey(store(), key, now)).toEqual({
      kind: 'machine',
      organizationId: organization.id,
      actor: { type: 'api_key', apiKeyId: row.id },
    });
    expect(row.lastUsedAt?.toISOString()).toBe(now.toISOString());
    // Stored as UTC text with milliseconds: the format the queue's hand-written SQL uses for its DATETIME(3) columns.
    const column = dialect === 'mysql' ? 'CAST(last_used_at AS CHAR)' : 'last_used_at';
    const [raw] = (await store().query(`SELECT ${column} AS stored FROM api_keys WHERE prefix = ?`, [prefix])) as {
      stored: string;
    }[];
    expect(raw?.stored).toBe('2030-01-02 03:04:05.678');
  });

  it('tells two organizations apart by their keys', async () => {
    const acme = await createApiKey(store(), 'acme');
    const globex = await createApiKey(store(), 'globex');

    expect((await verifyApiKey(store(), acme.key))?.organization.slug).toBe('acme');
    expect((await verifyApiKey(store(), globex.key))?.organization.slug).toBe('globex');
    expect(acme.organization.id).not.toBe(globex.organization.id);
  });

  it('rejects a wrong secret, an unknown prefix, a malformed key and another key of the same prefix shape', async () => {
    const { key, prefix } = await createApiKey(store(), 'acme');
    const other = await createApiKey(store(), 'globex');
    const secretOfOther = other.key.split('_').slice(2).join('_');
    const lastChar = key.at(-1) === 'A' ? 'B' : 'A';

    expect(await verifyApiKey(store(), `${key.slice(0, -1)}${lastChar}`)).toBeNull();
    expect(await verifyApiKey(store(), `qa_${prefix}_${secretOfOther}`)).toBeNull();
    expect(await verifyApiKey(store(), `qa_000000000000_${secretOfOther}`)).toBeNull();
    expect(await verifyApiKey(store(), 'qa_nope')).toBeNull();
    expect(await verifyApiKey(store(), '')).toBeNull();
    expect(await verifyApiKey(store(), ` ${key}`)).toBeNull();
  });

  it('rejects a revoked key while other keys of the organization keep working', async () => {
    const revoked = await createApiKey(store(), 'acme');
    const kept = await createApiKey(store(), 'acme');

    expect(await revokeApiKey(store(), revoked.prefix)).toBe(true);
    expect(await revokeApiKey(store(), revoked.prefix)).toBe(false);

    expect(await verifyApiKey(store(), revoked.key)).toBeNull();
    expect((await verifyApiKey(store(), kept.key))?.organization.slug).toBe('acme');
  });

  it('refuses an organization slug that is not lowercase letters, digits and inner hyphens', async () => {
    for (const slug of ['', 'Acme', 'acme_corp', '-acme', 'acme-', 'a'.repeat(65), 'acme corp']) {
      const error = await createApiKey(store(), slug).catch((caught: unknown) => caught);
      expect(isAppError(error) && error.code).toBe('organization.invalid_slug');
    }
    expect(await store().getRepository(Organization).count()).toBe(0);
  });
});
