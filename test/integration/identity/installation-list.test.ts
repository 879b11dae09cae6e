import { beforeEach, expect, it } from '@jest/globals';
import { installationListSchema } from '../../../src/api/schemas/people.js';
import { Installation } from '../../../src/store/entities/installation.entity.js';
import { ReportedInstallation } from '../../../src/store/entities/reported-installation.entity.js';
import { seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { putInDirectory } from '../../support/directory-rows.js';
import { signIn, usePeopleService } from '../../support/people-service.js';
import { TestBrowser } from '../../support/signed-in-browser.js';

forEachDialect('installations list for admins', (dialect) => {
  const store = useTestStore(dialect);
  const service = usePeopleService(store);
  const base = () => service().base;
  let shop: AcmeShop;
  let admin: TestBrowser;

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
    await putInDirectory(store(), 'admin_1', [{ serviceOrganizationId: shop.organizationId, name: 'Acme', role: 'admin' }]);
    admin = new TestBrowser();
    await signIn(service(), admin, 'admin_1');
  });

  const reported = (id: string, status: string, reportedAt: string) => ({
    provider: 'codehost', providerInstallationId: id, accountLogin: `acct-${id}`, accountType: 'Organization', repositorySelection: 'selected', status,
    reportedAt: new Date(reportedAt), updatedAt: new Date(),
  });

  it('lists the installations connected here, then those connected nowhere (newest report first), never another organization\'s', async () => {
    await store().getRepository(ReportedInstallation).insert([
      reported('201', 'active', '2026-11-01T10:00:00.000Z'),
      reported('202', 'suspended', '2026-11-03T10:00:00.000Z'),
      reported('203', 'deleted', '2026-11-04T10:00:00.000Z'),
      reported('204', 'active', '2026-11-05T10:00:00.000Z'),
      reported('205', 'active', '2026-11-02T10:00:00.000Z'),
    ]);
    // 204 is another organization's; 205 this one's; 206 this one's, connected by the operator before any report.
    await store().getRepository(Installation).insert([
      { provider: 'codehost', providerInstallationId: '204', organizationId: shop.otherOrganizationId, connectedBy: null },
      { provider: 'codehost', providerInstallationId: '205', organizationId: shop.organizationId, connectedBy: 'user:admin_0' },
      { provider: 'codehost', providerInstallationId: '206', organizationId: shop.organizationId, connectedBy: null },
    ]);

    const listed = await admin.call(base(), 'GET', '/api/installations');
    expect(listed.status).toBe(200);
    expect(installationListSchema.parse(listed.body)).toEqual(listed.body);
    expect(listed.body.installations).toEqual([
      {
        installationId: '205', account: 'acct-205', accountType: 'Organization', repositorySelection: 'selected', status: 'active',
        connectedOrganizationId: shop.organizationId, connectedBy: 'user:admin_0', reportedAt: '2026-11-02T10:00:00.000Z',
      },
      { installationId: '206', account: null, accountType: null, repositorySelection: null, status: null, connectedOrganizationId: shop.organizationId, connectedBy: null, reportedAt: null },
      {
        installationId: '202', account: 'acct-202', accountType: 'Organization', repositorySelection: 'selected', status: 'suspended',
        connectedOrganizationId: null, connectedBy: null, reportedAt: '2026-11-03T10:00:00.000Z',
      },
      {
        installationId: '201', account: 'acct-201', accountType: 'Organization', repositorySelection: 'selected', status: 'active',
        connectedOrganizationId: null, connectedBy: null, reportedAt: '2026-11-01T10:00:00.000Z',
      },
    ]);

    // Connecting one moves it to the first part of the list, with who connected it.
    expect((await admin.call(base(), 'POST', '/api/installations/201/connect')).status).toBe(200);
    const after = await admin.call(base(), 'GET', '/api/installations');
    expect(after.body.installations.map((row: Record<string, unknown>) => [row.installationId, row.connectedOrganizationId, row.connectedBy])).toEqual([
      ['201', shop.organizationId, 'user:admin_1'],
      ['205', shop.organizationId, 'user:admin_0'],
      ['206', shop.organizationId, null],
      ['202', null, null],
    ]);
  });
});
