/**
 * `npm run bench:corpus`: the whole corpus of issue 25 (test/corpus/: TodoMVC, The Internet, Swag Labs, each a
 * published suite's tests written as people's tasks) through the service as `qa start` composes it, on MySQL. Each
 * task is planned as written (questions answered with the task's answers, or consent), runs in Chromium on the
 * app's local copy, replays with no planner, its generated source runs under `npx playwright test`, and the replay
 * must fail with the task's bug switched on. Prints each task's furthest stage and why it stopped, and per suite
 * `N of M right` with the count at each stage; exits 0 (the counts are the figure).
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_bench_corpus, dropped and created again),
 * CORPUS_SUITE (one suite's name), CORPUS_TASK (one task's id).
 */
import { createApiKey } from '../src/identity/api-keys.js';
import { createRulePlanner } from '../src/planner/rule-planner.js';
import { openStore } from '../src/store/open-store.js';
import { sauceDemoSuite } from '../test/corpus/sauce-demo.js';
import { theInternetSuite } from '../test/corpus/the-internet.js';
import { todoMvcSuite } from '../test/corpus/todomvc.js';
import { startTestApi } from '../test/support/api-server.js';
import { insertRepository } from '../test/support/check-fixtures.js';
import { runCorpusTask, summarize, type CorpusOutcome } from '../test/support/corpus-run.js';
import { silentLogger } from '../test/support/logger.js';
import { startTestWorker } from '../test/support/qa-worker.js';
import { freshBenchDatabase } from './support/database.js';

const url = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/qa_bench_corpus';
await freshBenchDatabase(url);
const dataSource = await openStore({ database: { kind: 'mysql', url } }, silentLogger());
const worker = await startTestWorker(dataSource, { stepTimeoutMs: 3_000 });
const api = await startTestApi(dataSource, { artifacts: worker.artifacts });
const summaries: string[] = [];
try {
  for (const suite of [todoMvcSuite, theInternetSuite, sauceDemoSuite]) {
    if (process.env.CORPUS_SUITE !== undefined && process.env.CORPUS_SUITE !== suite.name) continue;
    const app = await suite.start();
    const outcomes: CorpusOutcome[] = [];
    try {
      console.log(`\n${suite.name}: ${suite.published}`);
      for (const task of suite.tasks) {
        if (process.env.CORPUS_TASK !== undefined && process.env.CORPUS_TASK !== task.id) continue;
        const { key, organization } = await createApiKey(dataSource, `corpus-${suite.name}-${task.id}`.slice(0, 60));
        const repositoryId = await insertRepository(dataSource, organization.id, { baseUrl: app.url });
        const outcome = await runCorpusTask({ base: api.base, key, repositoryId }, app, task);
        outcomes.push(outcome);
        const furthest = outcome.reached.at(-1) ?? 'not planned';
        const asked = outcome.asked.length > 0 ? ` (asked ${outcome.asked.length})` : '';
        console.log(`  ${outcome.reached.length === 5 ? 'right ' : 'wrong '} ${task.id}: ${furthest}${asked}${outcome.runMs === undefined ? '' : `, run ${outcome.runMs} ms`}${outcome.reached.length === 5 ? '' : `: ${(outcome.detail ?? '').replace(/\s+/g, ' ').slice(0, 300)}`}`);
      }
    } finally {
      await app.close();
    }
    summaries.push(summarize(suite.name, outcomes));
  }
} finally {
  await api.close();
  await worker.stop();
  await dataSource.destroy();
}
console.log('');
for (const line of summaries) console.log(line);

// Planning cost of the rule planner (issue 25: at most 30 ms a step): every task, as written, planned 20 times.
const planner = createRulePlanner();
let steps = 0;
let planned = 0;
const started = performance.now();
for (let round = 0; round < 20; round += 1) {
  for (const suite of [todoMvcSuite, theInternetSuite, sauceDemoSuite]) {
    for (const task of suite.tasks) {
      const result = await planner.interpret(task.task, { testValueNames: [], evidenceCriteria: [] });
      planned += 1;
      if (result.kind === 'runnable') steps += result.plan.steps.length;
    }
  }
}
const elapsed = performance.now() - started;
console.log(`rule planner: ${(elapsed / planned).toFixed(2)} ms a task, ${(elapsed / Math.max(1, steps)).toFixed(2)} ms a planned step (${planned} plans)`);
