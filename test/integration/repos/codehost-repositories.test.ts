import { expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { findCodehostRepository } from '../../../src/repos/codehost-repositories.js';
import { createInstallationRecords } from '../../../src/repos/installation-records.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { insertRepository } from '../../support/check-fixtures.js';

forEachDialect('the connected repository of a code-host event', (dialect) => {
  const store = useTestStore(dialect);

  async function seed() {
    const { organization: acme } = await createApiKey(store(), 'acme');
    const { organization: other } = await createApiKey(store(), 'other');
    await connectInstallation(store(), 'codehost', '42', 'acme');
    await connectInstallation(store(), 'codehost', '77', 'other');
    const shop = await insertRepository(store(), acme.id, { providerInstallationId: '42', owner: 'Acme', name: 'Shop' });
    // The same coordinates connected by another organization through its own installation.
    await insertRepository(store(), other.id, { providerInstallationId: '77', owner: 'acme', name: 'shop' });
    return { acme, other, shop };
  }

  it('finds the repository of the installation’s organization, whatever the case of owner and name', async () => {
    const { acme, shop } = await seed();
    const found = await findCodehostRepository(store(), { installationId: 42, owner: 'acme', name: 'SHOP' });
    expect(found).toMatchObject({ kind: 'connected', organizationId: acme.id, repository: { id: shop } });
  });

  it('never answers with another organization’s repository of the same name', async () => {
    const { other } = await seed();
    const found = await findCodehostRepository(store(), { installationId: 77, owner: 'Acme', name: 'Shop' });
    expect(found).toMatchObject({ kind: 'connected', organizationId: other.id });
    expect(found.kind === 'connected' && found.repository.providerInstallationId).toBe('77');
  });

  it('says which part is not connected', async () => {
    await seed();
    expect(await findCodehostRepository(store(), { installationId: 99, owner: 'acme', name: 'shop' })).toEqual({ kind: 'not_connected', reason: 'installation' });
    expect(await findCodehostRepository(store(), { installationId: 42, owner: 'acme', name: 'docs' })).toEqual({ kind: 'not_connected', reason: 'repository' });
    // Wildcards of LIKE mean nothing here.
    expect(await findCodehostRepository(store(), { installationId: 42, owner: 'acm_', name: 's%' })).toEqual({ kind: 'not_connected', reason: 'repository' });
  });

  it('blocks a suspended or deleted installation even though it is connected', async () => {
    await seed();
    const records = createInstallationRecords({ dataSource: store(), provider: 'codehost' });
    const change = (status: 'suspended' | 'active' | 'deleted', at: string) => ({
      installationId: '42',
      account: { login: 'acme', type: 'Organization' },
      repositorySelection: 'all',
      status,
      reportedAt: new Date(at),
      added: [],
      removed: [],
    });
    await records.apply(change('suspended', '2026-02-01T10:00:00Z'));
    expect(await findCodehostRepository(store(), { installationId: 42, owner: 'acme', name: 'shop' })).toEqual({ kind: 'installation_inactive', status: 'suspended' });
    await records.apply(change('active', '2026-02-01T11:00:00Z'));
    expect((await findCodehostRepository(store(), { installationId: 42, owner: 'acme', name: 'shop' })).kind).toBe('connected');
    await records.apply(change('deleted', '2026-02-01T12:00:00Z'));
    expect(await findCodehostRepository(store(), { installationId: 42, owner: 'acme', name: 'shop' })).toEqual({ kind: 'installation_inactive', status: 'deleted' });
  });
});
