import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SHARED_FILES } from '../../src/core/check-selection.js';
import { createApiKey } from '../../src/identity/api-keys.js';
import { ConnectedRepository } from '../../src/store/entities/connected-repository.entity.js';
import { insertRepository } from '../support/check-fixtures.js';
import { startTestApi, type TestApi } from '../support/api-server.js';
import { useTestStore } from '../support/dialects.js';
import { qa } from '../support/qa-cli.js';

/**
 * On MySQL only: the client verbs talk to the API over HTTP and never see the store's dialect; the routes they call
 * are tested on both dialects in test/integration/api/, and the client against `qa start` on SQLite in
 * test/e2e/cli-client.test.ts.
 */
describe('qa repos pull-requests against the real API', () => {
  const store = useTestStore('mysql');
  const folder = mkdtempSync(join(tmpdir(), 'qa-test-pr-settings-'));
  let api: TestApi;
  let key: string;
  let repositoryId: string;
  let otherRepositoryId: string;

  beforeAll(async () => {
    api = await startTestApi(store());
  });
  afterAll(async () => {
    await api.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const mine = await createApiKey(store(), 'acme');
    const theirs = await createApiKey(store(), 'globex');
    key = mine.key;
    repositoryId = await insertRepository(store(), mine.organization.id);
    otherRepositoryId = await insertRepository(store(), theirs.organization.id);
  });

  const settingsFile = (settings: unknown) => {
    const path = join(folder, `settings-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(settings));
    return path;
  };
  const run = (args: string[]) => qa(args, { QA_API_URL: api.base, QA_API_KEY: key, LOG_LEVEL: 'silent', SQLITE_PATH: join(folder, 'unused.sqlite') });

  it('stores the settings of the file and prints the repository', async () => {
    const result = await run(['repos', 'pull-requests', repositoryId, '--file', settingsFile({ previewUrlTemplate: 'https://pr-{number}.preview.example.com', runDrafts: true })]);

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).repository.pullRequests).toEqual({
      previewUrlTemplate: 'https://pr-{number}.preview.example.com',
      waitForDeployment: false,
      runDrafts: true,
      runForks: false,
      alwaysRun: [],
      sharedFiles: [...DEFAULT_SHARED_FILES],
    });
    expect((await store().getRepository(ConnectedRepository).findOneByOrFail({ id: repositoryId })).pullRequestSettings).toMatchObject({ runDrafts: true });
  });

  it('reports a bad template and another organization’s repository with their codes, changing nothing', async () => {
    const bad = await run(['repos', 'pull-requests', repositoryId, '--file', settingsFile({ previewUrlTemplate: 'https://pr-{branch}.example.com' })]);
    const foreign = await run(['repos', 'pull-requests', otherRepositoryId, '--file', settingsFile({ runForks: true })]);

    expect([bad.code, foreign.code]).toEqual([2, 2]);
    expect(bad.stderr).toMatch(/request\.invalid/);
    expect(bad.stderr).toMatch(/previewUrlTemplate/);
    expect(foreign.stderr).toMatch(/repository\.not_found/);
    const stored = await store().getRepository(ConnectedRepository).find();
    expect(stored.map((repository) => repository.pullRequestSettings)).toEqual([null, null]);
  });
});
