import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { readAccess } from '../../../src/identity/access-directory.js';
import { DirectoryConnection } from '../../../src/store/entities/directory-connection.entity.js';
import { DirectoryMembership } from '../../../src/store/entities/directory-membership.entity.js';
import { DirectoryOrganizationLink } from '../../../src/store/entities/directory-organization-link.entity.js';
import { DirectoryOrganization } from '../../../src/store/entities/directory-organization.entity.js';
import { DirectoryUser } from '../../../src/store/entities/directory-user.entity.js';
import { Organization } from '../../../src/store/entities/organization.entity.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const version = { sourceUpdatedAt: new Date('2026-12-01T10:00:00.000Z'), deliveryCreatedAt: new Date('2026-12-01T10:00:01.000Z'), eventId: 'event_1', deletedAt: null };

async function serviceOrganization(store: DataSource, slug: string, name: string): Promise<string> {
  const id = randomUUID();
  await store.getRepository(Organization).insert({ id, slug, name });
  return id;
}

forEachDialect('readAccess', (dialect) => {
  const store = useTestStore(dialect);

  it('is setup_required naming every missing piece, then ready once user, linked organization and active membership exist', async () => {
    expect(await readAccess(store(), 'user_1')).toEqual({ state: 'setup_required', missing: ['user', 'organization', 'membership'] });

    await store().getRepository(DirectoryUser).insert({ id: 'user_1', email: 'ada@acme.test', emailVerified: true, name: 'Ada', ...version });
    await store().getRepository(DirectoryMembership).insert({ id: 'om_1', userId: 'user_1', organizationId: 'org_1', status: 'pending', role: 'admin', ...version });
    expect(await readAccess(store(), 'user_1')).toEqual({ state: 'setup_required', missing: ['organization', 'membership'] });

    const acme = await serviceOrganization(store(), 'acme', 'Acme');
    await store().getRepository(DirectoryOrganization).insert({ id: 'org_1', name: 'Acme Inc', externalId: 'acme', linkedOrganizationId: acme, ...version });
    expect(await readAccess(store(), 'user_1')).toEqual({ state: 'setup_required', missing: ['membership'] });

    await store().getRepository(DirectoryMembership).update({ id: 'om_1' }, { status: 'active' });
    expect(await readAccess(store(), 'user_1')).toEqual({
      state: 'ready',
      user: { id: 'user_1', email: 'ada@acme.test', name: 'Ada' },
      organizations: [{ id: acme, name: 'Acme', role: 'admin' }],
    });

    await store().getRepository(DirectoryUser).update({ id: 'user_1' }, { deletedAt: new Date() });
    expect(await readAccess(store(), 'user_1')).toEqual({ state: 'setup_required', missing: ['user'] });
  });

  it('lists only live, linked organizations, the explicit link winning over external_id', async () => {
    const acme = await serviceOrganization(store(), 'acme', 'Acme');
    const other = await serviceOrganization(store(), 'other', 'Other');
    await store().getRepository(DirectoryUser).insert({ id: 'user_1', email: null, emailVerified: false, name: null, ...version });
    await store().getRepository(DirectoryOrganization).insert([
      { id: 'org_linked', name: 'Linked', externalId: 'acme', linkedOrganizationId: acme, ...version },
      { id: 'org_unlinked', name: 'Unlinked', externalId: 'nope', linkedOrganizationId: null, ...version },
      { id: 'org_deleted', name: 'Deleted', externalId: 'other', linkedOrganizationId: other, ...version, deletedAt: new Date() },
    ]);
    await store().getRepository(DirectoryOrganizationLink).insert({ directoryOrganizationId: 'org_linked', organizationId: other });
    await store().getRepository(DirectoryMembership).insert([
      { id: 'om_1', userId: 'user_1', organizationId: 'org_linked', status: 'active', role: 'member', ...version },
      { id: 'om_2', userId: 'user_1', organizationId: 'org_unlinked', status: 'active', role: 'admin', ...version },
      { id: 'om_3', userId: 'user_1', organizationId: 'org_deleted', status: 'active', role: 'admin', ...version },
      { id: 'om_4', userId: 'user_1', organizationId: 'org_linked', status: 'active', role: 'admin', ...version, deletedAt: new Date() },
    ]);

    expect(await readAccess(store(), 'user_1')).toEqual({
      state: 'ready',
      user: { id: 'user_1', email: null, name: null },
      organizations: [{ id: other, name: 'Other', role: 'member' }],
    });
  });

  it('drops an organization whose SSO connection for the user\'s domain is deactivated or deleted', async () => {
    const acme = await serviceOrganization(store(), 'acme', 'Acme');
    await store().getRepository(DirectoryUser).insert({ id: 'user_1', email: 'ada@ACME.test', emailVerified: true, name: 'Ada', ...version });
    await store().getRepository(DirectoryOrganization).insert({ id: 'org_1', name: 'Acme', externalId: 'acme', linkedOrganizationId: acme, ...version });
    await store().getRepository(DirectoryMembership).insert({ id: 'om_1', userId: 'user_1', organizationId: 'org_1', status: 'active', role: 'member', ...version });
    await store().getRepository(DirectoryConnection).insert({ id: 'conn_1', organizationId: 'org_1', state: 'active', domains: ['acme.test'], ...version });
    expect((await readAccess(store(), 'user_1')).state).toBe('ready');

    await store().getRepository(DirectoryConnection).update({ id: 'conn_1' }, { state: 'inactive' });
    expect(await readAccess(store(), 'user_1')).toEqual({ state: 'setup_required', missing: ['membership'] });

    await store().getRepository(DirectoryConnection).update({ id: 'conn_1' }, { state: 'active', deletedAt: new Date() });
    expect(await readAccess(store(), 'user_1')).toEqual({ state: 'setup_required', missing: ['membership'] });

    await store().getRepository(DirectoryConnection).insert({ id: 'conn_2', organizationId: 'org_1', state: 'active', domains: ['acme.test'], ...version });
    expect((await readAccess(store(), 'user_1')).state).toBe('ready');
  });
});
