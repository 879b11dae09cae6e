import { beforeEach, expect, it } from '@jest/globals';
import { DEFAULT_SHARED_FILES } from '../../../src/core/check-selection.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { shopRepositoryBody } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const DEFAULTS = { waitForDeployment: false, runDrafts: false, runForks: false, alwaysRun: [], sharedFiles: [...DEFAULT_SHARED_FILES] };

forEachDialect('repositories API: pull-request settings', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store);
  let key: string;
  let otherKey: string;

  beforeEach(async () => {
    key = (await createApiKey(store(), 'acme')).key;
    otherKey = (await createApiKey(store(), 'globex')).key;
    await connectInstallation(store(), 'codehost', '42', 'acme');
    await connectInstallation(store(), 'codehost', '99', 'globex');
  });

  const call = (method: string, path: string, body?: unknown, auth = key) => callApi(api.base, method, path, body, auth);
  const connect = async (overrides: Record<string, unknown> = {}, auth = key) => {
    const response = await call('POST', '/api/repositories', shopRepositoryBody(overrides), auth);
    expect(response.status).toBe(202);
    return response.body.repositoryId as string;
  };

  it('shows the defaults for a repository connected without settings, and the given ones otherwise', async () => {
    const plain = await connect();
    const previews = await connect({ name: 'web', pullRequests: { previewUrlTemplate: 'https://pr-{number}.preview.example.com', runDrafts: true } });

    expect((await call('GET', `/api/repositories/${plain}`)).body.repository.pullRequests).toEqual(DEFAULTS);
    expect((await call('GET', `/api/repositories/${previews}`)).body.repository.pullRequests).toEqual({
      ...DEFAULTS,
      previewUrlTemplate: 'https://pr-{number}.preview.example.com',
      runDrafts: true,
    });
    const listed = (await call('GET', '/api/repositories')).body.repositories.map((repository: { pullRequests: unknown }) => repository.pullRequests);
    expect(listed).toEqual([DEFAULTS, { ...DEFAULTS, previewUrlTemplate: 'https://pr-{number}.preview.example.com', runDrafts: true }]);
  });

  it('changes the settings given with PATCH, keeps the others, and removes an optional one given as null', async () => {
    const id = await connect({ pullRequests: { previewUrlTemplate: 'https://pr-{number}.preview.example.com', deploymentEnvironment: 'preview' } });

    const changed = await call('PATCH', `/api/repositories/${id}`, { pullRequests: { waitForDeployment: true, runForks: true, previewUrlTemplate: null } });

    expect(changed.status).toBe(200);
    expect(changed.body.repository).toMatchObject({ repositoryId: id, pullRequests: { waitForDeployment: true, runDrafts: false, runForks: true, deploymentEnvironment: 'preview' } });
    expect(changed.body.repository.pullRequests).not.toHaveProperty('previewUrlTemplate');
    expect((await call('GET', `/api/repositories/${id}`)).body.repository.pullRequests).toEqual(changed.body.repository.pullRequests);
  });

  it('keeps every field of PATCHes sent at once, each changing another one (no change writes back what it read before another)', async () => {
    const id = await connect();
    const changes = [
      { waitForDeployment: true },
      { runDrafts: true },
      { runForks: true },
      { previewUrlTemplate: 'https://pr-{number}.preview.example.com' },
      { deploymentEnvironment: 'preview' },
    ];
    for (let round = 0; round < 3; round++) {
      await call('PATCH', `/api/repositories/${id}`, { pullRequests: { waitForDeployment: false, runDrafts: false, runForks: false, previewUrlTemplate: null, deploymentEnvironment: null } });
      const responses = await Promise.all(changes.map((pullRequests) => call('PATCH', `/api/repositories/${id}`, { pullRequests })));
      expect(responses.map((response) => response.status)).toEqual(changes.map(() => 200));
      expect((await call('GET', `/api/repositories/${id}`)).body.repository.pullRequests).toEqual(Object.assign({ ...DEFAULTS }, ...changes));
    }
  });

  it.each([
    ['an unknown placeholder', { previewUrlTemplate: 'https://pr-{branch}.preview.example.com' }, 'pullRequests.previewUrlTemplate', /only the placeholders \{number\} and \{sha\}/],
    ['an unmatched brace', { previewUrlTemplate: 'https://pr-{number.preview.example.com' }, 'pullRequests.previewUrlTemplate', /unmatched/],
    ['a javascript: template', { previewUrlTemplate: 'javascript:alert({number})' }, 'pullRequests.previewUrlTemplate', /http\(s\) URL/],
    ['a template with credentials', { previewUrlTemplate: 'https://user:pw@pr-{number}.example.com' }, 'pullRequests.previewUrlTemplate', /user name or password/],
    ['a host label the head SHA makes too long', { previewUrlTemplate: `https://${'x'.repeat(30)}-{sha}.example.com` }, 'pullRequests.previewUrlTemplate', /valid host name/],
    ['a non-boolean switch', { runForks: 'yes' }, 'pullRequests.runForks', /boolean/],
    ['an unknown setting', { runEverything: true }, 'pullRequests', /runEverything/],
    ['a negated shared-file pattern', { sharedFiles: ['!docs/**'] }, 'pullRequests.sharedFiles.0', /negated/],
    ['a shared-file pattern outside the repository', { sharedFiles: ['config/*', '../../etc/*'] }, 'pullRequests.sharedFiles.1', /\.\./],
    ['an always-run id that is no check id', { alwaysRun: ['<script>'] }, 'pullRequests.alwaysRun.0', /check id/],
  ])('refuses %s with 400 request.invalid, naming the field, on connect and on PATCH', async (_what, pullRequests, field, message) => {
    const refused = await call('POST', '/api/repositories', shopRepositoryBody({ pullRequests }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'request.invalid', details: { field } });
    expect(refused.body.error.message).toMatch(message);
    expect(await store().getRepository(ConnectedRepository).count()).toBe(0);

    const id = await connect();
    const patched = await call('PATCH', `/api/repositories/${id}`, { pullRequests });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ code: 'request.invalid', details: { field } });
    expect((await call('GET', `/api/repositories/${id}`)).body.repository.pullRequests).toEqual(DEFAULTS);
  });

  it('sets always-run checks and shared-file patterns, and goes back to the default shared files on null', async () => {
    const id = await connect({ pullRequests: { alwaysRun: ['3f1c2a4e-7b1d-4c8e-9a2f-0d5e6b7c8a91'] } });
    expect((await call('GET', `/api/repositories/${id}`)).body.repository.pullRequests).toEqual({ ...DEFAULTS, alwaysRun: ['3f1c2a4e-7b1d-4c8e-9a2f-0d5e6b7c8a91'] });

    const own = await call('PATCH', `/api/repositories/${id}`, { pullRequests: { sharedFiles: ['config/**', '/Dockerfile'] } });
    expect(own.body.repository.pullRequests).toEqual({ ...DEFAULTS, alwaysRun: ['3f1c2a4e-7b1d-4c8e-9a2f-0d5e6b7c8a91'], sharedFiles: ['config/**', '/Dockerfile'] });
    const none = await call('PATCH', `/api/repositories/${id}`, { pullRequests: { sharedFiles: [], alwaysRun: [] } });
    expect(none.body.repository.pullRequests).toEqual({ ...DEFAULTS, sharedFiles: [] });
    const reset = await call('PATCH', `/api/repositories/${id}`, { pullRequests: { sharedFiles: null } });
    expect(reset.body.repository.pullRequests).toEqual(DEFAULTS);
    // Stored without the list, so the repository follows the default list as it changes.
    expect((await store().getRepository(ConnectedRepository).findOneByOrFail({ id })).pullRequestSettings).not.toHaveProperty('sharedFiles');
  });

  it('refuses a PATCH body without pullRequests or with other fields', async () => {
    const id = await connect();
    for (const body of [{}, { pullRequests: {}, baseUrl: 'https://elsewhere.example' }]) {
      const response = await call('PATCH', `/api/repositories/${id}`, body);
      expect([response.status, response.body.error.code]).toEqual([400, 'request.invalid']);
    }
    expect((await store().getRepository(ConnectedRepository).findOneByOrFail({ id })).baseUrl).toBe('https://shop.example');
  });

  it('answers 404 for another organization’s repository and changes nothing', async () => {
    const theirs = await connect({ providerInstallationId: '99' }, otherKey);

    const response = await call('PATCH', `/api/repositories/${theirs}`, { pullRequests: { runForks: true } });

    expect([response.status, response.body.error.code]).toEqual([404, 'repository.not_found']);
    expect((await call('GET', `/api/repositories/${theirs}`, undefined, otherKey)).body.repository.pullRequests).toEqual(DEFAULTS);
    const unknown = await call('PATCH', '/api/repositories/00000000-0000-4000-8000-000000000000', { pullRequests: { runForks: true } });
    expect(unknown.status).toBe(404);
  });
});
