import { beforeEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { createInstallationRecords } from '../../../src/repos/installation-records.js';
import { connectInstallation, excludeOwner } from '../../../src/store/repository-admission.js';
import { ONBOARDING_JOB } from '../../../src/workflows/onboarding.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { shopRepositoryBody } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const SECRETS = {
  PROBE_URL: 'https://probe.shop.example/orders?token-in-url=s3cr3t-url',
  PROBE_TOKEN: 's3cr3t-token',
  PLAIN_PROBE_URL: 'http://probe.shop.example/orders',
  FOREIGN_PROBE_URL: 'https://elsewhere.example/orders',
};

function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return shopRepositoryBody({
    networkAllowlist: ['Probe.Shop.Example'],
    testValueSecretRefs: { orderProbeUrl: 'PROBE_URL', orderProbeToken: 'PROBE_TOKEN', demoPassword: 'DEMO_PASSWORD' },
    evidenceProbeRefs: { orderCreated: { urlValueRef: 'orderProbeUrl', tokenValueRef: 'orderProbeToken' } },
    ...overrides,
  });
}

forEachDialect('repositories API', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store, { secrets: SECRETS, excludedOwners: ['evil-corp'] });
  let key: string;
  let otherKey: string;
  let organizationId: string;

  beforeEach(async () => {
    const mine = await createApiKey(store(), 'acme');
    const theirs = await createApiKey(store(), 'globex');
    key = mine.key;
    otherKey = theirs.key;
    organizationId = mine.organization.id;
    await connectInstallation(store(), 'codehost', '42', 'acme');
    await connectInstallation(store(), 'codehost', '99', 'globex');
  });

  const call = (method: string, path: string, body?: unknown, auth = key) => callApi(api.base, method, path, body, auth);

  const stored = async () => Number((await store().query('SELECT COUNT(*) AS n FROM repositories'))[0].n) + Number((await store().query('SELECT COUNT(*) AS n FROM ingestion_runs'))[0].n);

  it('connects a repository, queues its onboarding, and lists it; no secret value ever appears', async () => {
    const connected = await call('POST', '/api/repositories', validBody({ revision: 'abcdef1' }));
    expect(connected.status).toBe(202);
    expect(Object.keys(connected.body).sort()).toEqual(['ingestionRunId', 'organizationId', 'repositoryId', 'workflowRunId']);
    expect(connected.body.organizationId).toBe(organizationId);
    const workflow = await api.queue.backend.repository.getJobById(connected.body.workflowRunId);
    expect(workflow).toMatchObject({ name: ONBOARDING_JOB, data: { ingestionRunId: connected.body.ingestionRunId } });

    const one = await call('GET', `/api/repositories/${connected.body.repositoryId}`);
    expect(one.body.repository).toMatchObject({ repositoryId: connected.body.repositoryId, owner: 'acme', networkAllowlist: ['probe.shop.example'], revision: 'abcdef1' });
    expect(one.body.ingestionRuns).toEqual([
      expect.objectContaining({ ingestionRunId: connected.body.ingestionRunId, status: 'queued', workflowRunId: connected.body.workflowRunId }),
    ]);
    const list = await call('GET', '/api/repositories');
    expect(list.body.repositories.map((r: { repositoryId: string }) => r.repositoryId)).toEqual([connected.body.repositoryId]);
    for (const text of [connected.text, one.text, list.text]) {
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    }

    const job = await call('POST', '/api/jobs', { projectId: connected.body.repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl: 'https://shop.example', trigger: 'cli' });
    expect(job.status).toBe(202);
  });

  it.each([
    ['a probe URL ref that is not a test value', { evidenceProbeRefs: { orderCreated: { urlValueRef: 'nope', tokenValueRef: 'orderProbeToken' } } }, 'repository.probe_ref_unknown', 'evidenceProbeRefs.orderCreated.urlValueRef'],
    ['a probe token ref that is not a test value', { evidenceProbeRefs: { orderCreated: { urlValueRef: 'orderProbeUrl', tokenValueRef: 'nope' } } }, 'repository.probe_ref_unknown', 'evidenceProbeRefs.orderCreated.tokenValueRef'],
    ['a probe URL secret not set on the server', { testValueSecretRefs: { orderProbeUrl: 'UNSET_URL', orderProbeToken: 'PROBE_TOKEN' } }, 'repository.probe_url_unset', 'evidenceProbeRefs.orderCreated.urlValueRef'],
    ['a plain-http probe', { testValueSecretRefs: { orderProbeUrl: 'PLAIN_PROBE_URL', orderProbeToken: 'PROBE_TOKEN' } }, 'repository.probe_not_https', 'evidenceProbeRefs.orderCreated.urlValueRef'],
    ['a probe host outside the allowlist', { testValueSecretRefs: { orderProbeUrl: 'FOREIGN_PROBE_URL', orderProbeToken: 'PROBE_TOKEN' } }, 'repository.probe_host_not_allowed', 'evidenceProbeRefs.orderCreated.urlValueRef'],
    ['an unknown field', { organizationId: 'theirs' }, 'request.invalid', '(body)'],
    ['another provider', { provider: 'elsewhere' }, 'request.invalid', 'provider'],
    ['a plain-http clone URL', { cloneUrl: 'http://code.example/acme/shop.git' }, 'request.invalid', 'cloneUrl'],
    ['an owner with a slash', { owner: 'acme/evil' }, 'request.invalid', 'owner'],
    ['a secret ref that is not a variable name', { testValueSecretRefs: { demo: 'lower-case' } }, 'request.invalid', 'testValueSecretRefs.demo'],
    ['a branch with a space', { defaultBranch: 'main branch' }, 'request.invalid', 'defaultBranch'],
  ])('rejects %s with 400, storing nothing', async (_what, overrides, code, field) => {
    const response = await call('POST', '/api/repositories', validBody(overrides));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code, details: { field } });
    for (const secret of Object.values(SECRETS)) expect(response.text).not.toContain(secret);
    expect(await stored()).toBe(0);
  });

  describe('refusals before anything is stored', () => {
    it('refuses an excluded owner, by configuration or by record, with 403', async () => {
      const configured = await call('POST', '/api/repositories', validBody({ owner: 'Evil-Corp' }));
      expect([configured.status, configured.body.error.code]).toEqual([403, 'repository.owner_excluded']);
      await excludeOwner(store(), 'acme');
      const recorded = await call('POST', '/api/repositories', validBody());
      expect([recorded.status, recorded.body.error.code]).toEqual([403, 'repository.owner_excluded']);
      expect(await stored()).toBe(0);
    });

    it('refuses an installation not connected to the caller’s organization with 403', async () => {
      const unknown = await call('POST', '/api/repositories', validBody({ providerInstallationId: '7' }));
      expect([unknown.status, unknown.body.error.code]).toEqual([403, 'repository.installation_not_connected']);
      const theirs = await call('POST', '/api/repositories', validBody({ providerInstallationId: '99' }));
      expect(theirs.status).toBe(403);
      expect((await call('POST', '/api/repositories', validBody({ providerInstallationId: '99' }), otherKey)).status).toBe(202);
    });

    it('refuses an installation the code host reported suspended or deleted, though it is connected', async () => {
      const records = createInstallationRecords({ dataSource: store(), provider: 'codehost' });
      const report = (status: 'suspended' | 'active' | 'deleted', at: string) =>
        records.apply({ installationId: '42', account: { login: 'acme', type: 'Organization' }, repositorySelection: 'all', status, reportedAt: new Date(at), added: [], removed: [] });
      await report('suspended', '2026-03-01T10:00:00Z');
      const suspended = await call('POST', '/api/repositories', validBody());
      expect([suspended.status, suspended.body.error.code, suspended.body.error.details]).toEqual([403, 'repository.installation_inactive', { status: 'suspended' }]);
      await report('active', '2026-03-01T11:00:00Z');
      expect((await call('POST', '/api/repositories', validBody())).status).toBe(202);
      await report('deleted', '2026-03-01T12:00:00Z');
      const deleted = await call('POST', '/api/repositories', validBody({ name: 'docs' }));
      expect([deleted.status, deleted.body.error.code]).toEqual([403, 'repository.installation_inactive']);
      expect(await stored()).toBe(2); // the one connection made while active: its repository and ingestion run
    });

    it('answers 503 while live or AI execution is paused', async () => {
      await setCapabilityPaused(store(), 'ai', true);
      const ai = await call('POST', '/api/repositories', validBody());
      expect([ai.status, ai.body.error.details.capability]).toEqual([503, 'ai']);
      await setCapabilityPaused(store(), 'ai', false);
      await setCapabilityPaused(store(), 'live', true, organizationId);
      expect((await call('POST', '/api/repositories', validBody())).status).toBe(503);
      expect(await stored()).toBe(0);
    });
  });

  it('hides other organizations’ repositories: 404 by id, absent from the list', async () => {
    const theirs = await call('POST', '/api/repositories', validBody({ providerInstallationId: '99' }), otherKey);
    const lookup = await call('GET', `/api/repositories/${theirs.body.repositoryId}`);
    expect([lookup.status, lookup.body.error.code]).toEqual([404, 'repository.not_found']);
    expect((await call('GET', '/api/repositories')).body.repositories).toEqual([]);
  });
});
