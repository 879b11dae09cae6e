/**
 * The corpus of issue 25 through the real service: each task, as a person wrote it, is planned, runs in Chromium on
 * a faithful local copy of its app, is compiled into a check that replays with no planner and whose generated source
 * passes `npx playwright test`, and that check fails on the app with the task's bug switched on. CI runs the tasks
 * named in CI_TASKS (a fast sample of each suite); `npm run bench:corpus` runs them all and prints the counts.
 * The generated sources of a suite's tasks run in one `playwright test` (one spec file each), the suite's last test:
 * a run of its own per task paid Playwright's start and a browser launch each time, and proved nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { sauceDemoSuite } from '../../corpus/sauce-demo.js';
import { theInternetSuite } from '../../corpus/the-internet.js';
import { todoMvcSuite } from '../../corpus/todomvc.js';
import type { CorpusApp, CorpusSuite } from '../../corpus/types.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { checkSource, firstError, runCorpusTask, runGeneratedSources, type CorpusService } from '../../support/corpus-run.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

/** Task ids per suite that CI runs (all of a suite's tasks with CORPUS_ALL=1). */
const CI_TASKS: Readonly<Record<string, readonly string[]>> = {
  todomvc: ['clear-completed-removes', 'active-filter'],
  'the-internet': ['login-correct-credentials', 'javascript-confirm-accept'],
  'sauce-demo': ['cart-to-checkout', 'checkout-cancel-to-cart', 'menu-all-items'],
};

const SUITES: readonly CorpusSuite[] = [todoMvcSuite, theInternetSuite, sauceDemoSuite].filter(
  (suite) => process.env.CORPUS_SUITE === undefined || process.env.CORPUS_SUITE === suite.name,
);

/** The tasks this run takes from a suite: one (CORPUS_TASK), all (CORPUS_ALL=1), or the CI sample. */
function chosenTasks(suite: CorpusSuite) {
  const only = process.env.CORPUS_TASK;
  return suite.tasks.filter((task) => (only !== undefined ? task.id === only : process.env.CORPUS_ALL === '1' || CI_TASKS[suite.name]?.includes(task.id)));
}

describe.each(SUITES.filter((suite) => chosenTasks(suite).length > 0).map((suite) => [suite.name, suite] as const))('corpus %s, as people wrote it, through the service', (_name, suite) => {
  let app: CorpusApp;
  let worker: TestWorker;
  let api: TestApi;
  /** The API's address; each test makes its own key and repository (the store is emptied after every test). */
  let base: string;

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await app?.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    app = await suite.start();
    worker = await startTestWorker(store(), { stepTimeoutMs: 3_000 });
    api = await startTestApi(store(), { artifacts: worker.artifacts });
    base = api.base;
  });

  async function service(): Promise<CorpusService> {
    const { key, organization } = await createApiKey(store(), 'corpus');
    return { base, key, repositoryId: await insertRepository(store(), organization.id, { baseUrl: app.url }) };
  }

  /** The generated source of each task that got that far, by task id (read before the store is emptied). */
  const sources = new Map<string, string>();

  it.each(chosenTasks(suite).map((task) => [task.id, task] as const))('%s', async (_id, task) => {
    const corpusService = await service();
    const outcome = await runCorpusTask(corpusService, app, task, { source: false });
    if (outcome.checkId !== undefined) sources.set(task.id, await checkSource(corpusService, outcome.checkId));
    expect({ id: outcome.id, reached: outcome.reached, detail: outcome.reached.length === 4 ? 'right' : outcome.detail }).toEqual({ id: task.id, reached: ['planned', 'passed', 'replayed', 'caught'], detail: 'right' });
  });

  it('the generated source of every task passes `npx playwright test` on the app as it is', async () => {
    const ids = chosenTasks(suite).map((task) => task.id);
    expect([...sources.keys()].sort()).toEqual([...ids].sort());
    app.setBug(null);
    app.reset();
    const outcome = await runGeneratedSources(Object.fromEntries([...sources].map(([id, source]) => [`${id}.spec.ts`, source])));
    expect({ code: outcome.code, passed: outcome.stats.expected, failed: outcome.stats.unexpected, error: outcome.code === 0 ? null : firstError(outcome.output) }).toEqual({ code: 0, passed: ids.length, failed: 0, error: null });
  });
});
