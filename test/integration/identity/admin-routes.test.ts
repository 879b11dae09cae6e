import { beforeEach, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { ApiKey } from '../../../src/store/entities/api-key.entity.js';
import { ExecutionFlag } from '../../../src/store/entities/execution-flag.entity.js';
import { Installation } from '../../../src/store/entities/installation.entity.js';
import { ReportedInstallation } from '../../../src/store/entities/reported-installation.entity.js';
import { callApi } from '../../support/api-server.js';
import { seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { putInDirectory } from '../../support/directory-rows.js';
import { signIn, usePeopleService } from '../../support/people-service.js';
import { TestBrowser } from '../../support/signed-in-browser.js';

const RUNNABLE = 'Check that the pricing page lists three plans';

forEachDialect('admin routes for people', (dialect) => {
  const store = useTestStore(dialect);
  const service = usePeopleService(store);
  const base = () => service().base;
  let shop: AcmeShop;
  let admin: TestBrowser;
  let member: TestBrowser;

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
    await putInDirectory(store(), 'admin_1', [{ serviceOrganizationId: shop.organizationId, name: 'Acme', role: 'admin' }]);
    await putInDirectory(store(), 'member_1', [{ serviceOrganizationId: shop.organizationId, name: 'Acme', role: 'member' }]);
    admin = new TestBrowser();
    await signIn(service(), admin, 'admin_1');
    member = new TestBrowser();
    await signIn(service(), member, 'member_1');
  });

  it('lets an admin create a key (the secret shown once), list it without a secret, and revoke it; who did it is recorded', async () => {
    const created = await admin.call(base(), 'POST', '/api/keys', { label: 'ci' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ key: expect.stringMatching(/^qa_[0-9a-f]{12}_/), prefix: expect.any(String), label: 'ci', createdBy: 'user:admin_1' });
    const key = created.body.key as string;
    expect((await callApi(base(), 'GET', '/api/repositories', undefined, key)).status).toBe(200);

    const listed = await admin.call(base(), 'GET', '/api/keys');
    expect(listed.status).toBe(200);
    // The secret is everything after `qa_<prefix>_` (base64url: it may hold `_` itself).
    expect(JSON.stringify(listed.body)).not.toContain(key.slice('qa_'.length + 12 + 1));
    expect(listed.body.keys).toEqual(expect.arrayContaining([expect.objectContaining({ prefix: created.body.prefix, label: 'ci', createdBy: 'user:admin_1', revokedAt: null })]));
    expect(listed.body.keys).toHaveLength(2);

    expect((await admin.call(base(), 'DELETE', `/api/keys/${created.body.prefix as string}`)).status).toBe(204);
    expect((await callApi(base(), 'GET', '/api/repositories', undefined, key)).status).toBe(401);
    expect(await store().getRepository(ApiKey).findOneBy({ prefix: created.body.prefix as string })).toMatchObject({ revokedBy: 'user:admin_1' });

    const theirs = await createApiKey(store(), 'initech');
    const elsewhere = await admin.call(base(), 'DELETE', `/api/keys/${theirs.prefix}`);
    expect(elsewhere.status).toBe(404);
    expect((await callApi(base(), 'GET', '/api/repositories', undefined, theirs.key)).status).toBe(200);
  });

  it('lets an admin pause and resume AI execution for the organization; the pause holds for keys too', async () => {
    const paused = await admin.call(base(), 'PUT', '/api/execution-flags/ai', { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body.flags).toEqual([
      { capability: 'live', paused: false, pausedForEveryone: false },
      { capability: 'ai', paused: true, pausedForEveryone: false },
    ]);
    expect(await store().getRepository(ExecutionFlag).findOneBy({ scope: shop.organizationId, capability: 'ai' })).toMatchObject({ updatedBy: 'user:admin_1' });
    const refused = await callApi(base(), 'POST', '/api/jobs', { projectId: shop.repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, shop.key);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('execution.paused');
    await admin.call(base(), 'PUT', '/api/execution-flags/ai', { paused: false });
    const accepted = await callApi(base(), 'POST', '/api/jobs', { projectId: shop.repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, shop.key);
    expect(accepted.status).toBe(202);
    expect((await admin.call(base(), 'PUT', '/api/execution-flags/everything', { paused: true })).status).toBe(404);
  });

  it('answers 403 role.forbidden to members and to API keys on every admin route', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/keys', undefined],
      ['POST', '/api/keys', {}],
      ['DELETE', '/api/keys/0123456789ab', undefined],
      ['GET', '/api/execution-flags', undefined],
      ['PUT', '/api/execution-flags/live', { paused: true }],
      ['POST', '/api/installations/101/connect', undefined],
      ['GET', '/api/installations', undefined],
    ] as const) {
      const byMember = await member.call(base(), method, path, body);
      const byKey = await callApi(base(), method, path, body, shop.key);
      expect({ method, path, member: [byMember.status, byMember.body.error.code], key: [byKey.status, byKey.body.error.code] }).toEqual({
        method, path, member: [403, 'role.forbidden'], key: [403, 'role.forbidden'],
      });
    }
    expect(await store().getRepository(ExecutionFlag).count()).toBe(0);
    expect(await store().getRepository(Installation).count()).toBe(0);
  });

  it('lets an admin connect an installation the code host reported, never one another organization has', async () => {
    const reported = (id: string, status: string) => ({
      provider: 'codehost', providerInstallationId: id, accountLogin: `acct-${id}`, accountType: 'Organization', repositorySelection: 'all', status, reportedAt: new Date(), updatedAt: new Date(),
    });
    await store().getRepository(ReportedInstallation).insert([reported('101', 'active'), reported('102', 'suspended'), reported('103', 'active')]);
    await store().getRepository(Installation).insert({ provider: 'codehost', providerInstallationId: '103', organizationId: shop.otherOrganizationId, connectedBy: null });

    const connected = await admin.call(base(), 'POST', '/api/installations/101/connect');
    expect(connected.status).toBe(200);
    expect(connected.body).toEqual({ installationId: '101', account: 'acct-101', organizationId: shop.organizationId, connectedBy: 'user:admin_1' });
    expect(await store().getRepository(Installation).findOneBy({ providerInstallationId: '101' })).toMatchObject({ organizationId: shop.organizationId, connectedBy: 'user:admin_1' });
    // Again: the same answer, nothing else changes.
    expect((await admin.call(base(), 'POST', '/api/installations/101/connect')).status).toBe(200);

    for (const [id, status, code] of [['102', 404, 'installation.not_reported'], ['999', 404, 'installation.not_reported'], ['abc', 404, 'installation.not_reported'], ['103', 409, 'installation.connected_elsewhere']] as const) {
      const answer = await admin.call(base(), 'POST', `/api/installations/${id}/connect`);
      expect({ id, status: answer.status, code: answer.body.error.code }).toEqual({ id, status, code });
    }
    expect(await store().getRepository(Installation).findOneBy({ providerInstallationId: '103' })).toMatchObject({ organizationId: shop.otherOrganizationId });
  });
});
