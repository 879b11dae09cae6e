/**
 * The corpus of issue 25 through the real service: each task, as a person wrote it, is planned, runs in Chromium on
 * a faithful local copy of its app, is compiled into a check that replays with no planner and whose generated source
 * passes `npx playwright test`, and that check fails on the app with the task's bug switched on. CI runs the tasks
 * named in CI_TASKS (a fast sample of each suite); `npm run bench:corpus` runs them all and prints the counts.
 *
 * The suites run at once, each on its own app, through one worker (three jobs at a time) and one API: a suite's tasks
 * follow one another, because a bug is switched on its whole app. One after another, each suite with a worker of its
 * own, the file took two minutes, most of it waiting (a replay on a broken app waits out its step's timeout). The
 * generated sources of every task run in one `playwright test` (one spec file each) at the end: a run of its own per
 * task or per suite paid Playwright's start and a browser launch each time, and proved nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { sauceDemoSuite } from '../../corpus/sauce-demo.js';
import { theInternetSuite } from '../../corpus/the-internet.js';
import { todoMvcSuite } from '../../corpus/todomvc.js';
import type { CorpusApp, CorpusSuite, CorpusTask } from '../../corpus/types.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { checkSource, firstError, runCorpusTask, runGeneratedSources, type CorpusOutcome, type CorpusService } from '../../support/corpus-run.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

/** Task ids per suite that CI runs (all of a suite's tasks with CORPUS_ALL=1). */
const CI_TASKS: Readonly<Record<string, readonly string[]>> = {
  todomvc: ['clear-completed-removes', 'active-filter'],
  'the-internet': ['login-correct-credentials', 'javascript-confirm-accept'],
  'sauce-demo': ['cart-to-checkout', 'checkout-cancel-to-cart', 'menu-all-items'],
};

/** The tasks this run takes from a suite: one (CORPUS_TASK), all (CORPUS_ALL=1), or the CI sample. */
function chosenTasks(suite: CorpusSuite): CorpusTask[] {
  const only = process.env.CORPUS_TASK;
  return suite.tasks.filter((task) => (only !== undefined ? task.id === only : process.env.CORPUS_ALL === '1' || CI_TASKS[suite.name]?.includes(task.id)));
}

const SUITES: readonly CorpusSuite[] = [todoMvcSuite, theInternetSuite, sauceDemoSuite].filter(
  (suite) => (process.env.CORPUS_SUITE === undefined || process.env.CORPUS_SUITE === suite.name) && chosenTasks(suite).length > 0,
);

/** What a task's run left: its outcome, or the error that stopped the harness, and the check's generated source. */
interface TaskResult {
  outcome?: CorpusOutcome;
  error?: unknown;
  source?: string;
}

describe('the corpus, as people wrote it, through the service', () => {
  let worker: TestWorker;
  let api: TestApi;
  const apps: CorpusApp[] = [];
  // Declared before the store's own hooks, so the worker has stopped before the store closes.
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await Promise.all(apps.map((app) => app.close()));
  });
  const store = useTestStore('mysql');
  /** By `<suite>/<task id>`. */
  const results = new Map<string, TaskResult>();

  /** A key and a repository of their own per task, as a new team would have. */
  async function service(app: CorpusApp): Promise<CorpusService> {
    const { key, organization } = await createApiKey(store(), 'corpus');
    return { base: api.base, key, repositoryId: await insertRepository(store(), organization.id, { baseUrl: app.url }) };
  }

  async function runSuite(suite: CorpusSuite): Promise<void> {
    const app = await suite.start();
    apps.push(app);
    for (const task of chosenTasks(suite)) {
      const result: TaskResult = {};
      results.set(`${suite.name}/${task.id}`, result);
      try {
        const corpusService = await service(app);
        result.outcome = await runCorpusTask(corpusService, app, task, { source: false });
        if (result.outcome.checkId !== undefined) result.source = await checkSource(corpusService, result.outcome.checkId);
      } catch (error) {
        result.error = error;
      }
    }
  }

  beforeAll(async () => {
    // A step waits 5 s for its target: long enough for three runs at once on a loaded 2-core machine, short enough
    // for a replay on a broken app, which waits it out, to end soon.
    worker = await startTestWorker(store(), { stepTimeoutMs: 5_000, concurrency: 3 });
    api = await startTestApi(store(), { artifacts: worker.artifacts });
    await Promise.all(SUITES.map(runSuite));
  }, 600_000);

  it.each(SUITES.flatMap((suite) => chosenTasks(suite).map((task) => [`${suite.name}/${task.id}`, task] as const)))('%s', (key, task) => {
    const result = results.get(key);
    if (result?.error !== undefined) throw result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
    const outcome = result?.outcome;
    expect({ id: outcome?.id, reached: outcome?.reached, detail: outcome?.reached.length === 4 ? 'right' : outcome?.detail }).toEqual({ id: task.id, reached: ['planned', 'passed', 'replayed', 'caught'], detail: 'right' });
  });

  it('the generated source of every task passes `npx playwright test` on its app as it is', async () => {
    const keys = [...results.keys()];
    const sources = Object.fromEntries([...results].filter(([, result]) => result.source !== undefined).map(([key, result]) => [`${key.replace('/', '--')}.spec.ts`, result.source!]));
    expect(Object.keys(sources).sort()).toEqual(keys.map((key) => `${key.replace('/', '--')}.spec.ts`).sort());
    for (const app of apps) {
      app.setBug(null);
      app.reset();
    }
    const outcome = await runGeneratedSources(sources);
    expect({ code: outcome.code, passed: outcome.stats.expected, failed: outcome.stats.unexpected, error: outcome.code === 0 ? null : firstError(outcome.output) }).toEqual({ code: 0, passed: keys.length, failed: 0, error: null });
  });
});
