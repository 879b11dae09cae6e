/**
 * The onboarding workflow on the real store and queue, with step implementations the test injects: every step in
 * order to a succeeded ingestion, child catalog builds made by the real job service within their bounds, a worker
 * frozen in each step and taken over (its lock expires) resuming at that step without repeating a finished one, and
 * paused execution making the ingestion wait, then go on.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { In } from 'typeorm';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { CatalogBuild } from '../../../src/store/entities/catalog-build.entity.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { CoverageLinkRecord } from '../../../src/store/entities/coverage-link.entity.js';
import { IngestionRun } from '../../../src/store/entities/ingestion-run.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { RepositoryFlow } from '../../../src/store/entities/repository-flow.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { COMMIT, eventually, flow, KILL_TEST_FLOWS, testSteps, type StepName } from '../../support/onboarding-steps.js';
import { spawnTestChild } from '../../support/processes/spawn.js';
import { testMysqlUrl } from '../../support/databases.js';
import { onboardingHarness, type OnboardingHarness } from '../../support/onboarding-worker.js';

const TIMEOUT = 120_000;

forEachDialect('onboarding workflow', (dialect) => {
  const store = useTestStore(dialect);
  let harness: OnboardingHarness;
  let organizationId: string;
  let repositoryId: string;

  beforeEach(async () => {
    harness = await onboardingHarness(store());
    ({ organization: { id: organizationId } } = await createApiKey(store(), 'acme'));
    repositoryId = await insertRepository(store(), organizationId, { allowedSideEffects: ['create'] });
  });
  afterEach(async () => harness.close());

  const run = (id: string) => store().getRepository(IngestionRun).findOneByOrFail({ id });
  const ended = (id: string) => eventually(async () => { const row = await run(id); return ['succeeded', 'failed'].includes(row.status) && row; }, `ingestion ${id} to end`);
  /** Stands in for the children's QA runs: each queued child of the ingestion ends as `verdict` says. */
  async function finishChildren(ingestionRunId: string, verdict: (job: Job) => 'passed' | 'failed'): Promise<Job[]> {
    const children = await store().getRepository(Job).findBy({ ingestionRunId, status: 'queued' });
    for (const child of children) await store().getRepository(Job).update({ id: child.id }, { status: verdict(child), finishedAt: new Date(), updatedAt: new Date() });
    return children;
  }

  it('runs every step, links coverage, and builds the uncovered flows, most valuable first, up to the side effect', async () => {
    const existing = '00000000-0000-4000-8000-00000000c0de';
    await store().getRepository(Check).insert({ id: existing, organizationId, repositoryId, status: 'active', task: 'Sign in', version: 0 });
    const steps = testSteps(
      [
        flow('sign-in', { value: 9 }),
        flow('search', { value: 8 }),
        flow('checkout', { value: 5, sideEffect: 'pay', steps: ['Go to /cart.', 'Open the checkout form.', 'Place the order.'] }),
        flow('add-note', { value: 3, sideEffect: 'create' }),
        flow('delete-account', { value: 1, sideEffect: 'delete', steps: ['Delete the account.'] }),
      ],
      (checks) => checks.map((check) => ({ flowKey: 'sign-in', checkId: check.checkId, reason: 'route' })),
    );
    await harness.worker({ ports: steps.ports, catalog: { maxConcurrency: 1 } });
    const id = await harness.start(organizationId, repositoryId);

    // One child at a time (CATALOG_MAX_CONCURRENCY 1): finish each as it appears; checkout's fails.
    const seen: Job[] = [];
    await eventually(async () => {
      seen.push(...(await finishChildren(id, (job) => (job.task?.includes('cart') ? 'failed' : 'passed'))));
      return (await run(id)).status === 'succeeded';
    }, 'the ingestion to succeed');

    expect(seen.map((job) => job.task)).toEqual([
      'Go to /search. Check that the page shows "search".',
      'Go to /cart. Open the checkout form.',
      'Go to /add-note. Check that the page shows "add-note".',
    ]);
    expect(seen.every((job) => job.trigger === 'system' && job.startedBy === `onboarding:${id}`)).toBe(true);
    const done = await run(id);
    expect(done).toMatchObject({ step: 'build', commitSha: COMMIT, errorCode: null });
    expect(done.counts).toMatchObject({ routes: 5, flows: 5, edgeCases: 5, builds: 3, buildsPassed: 2, buildsFailed: 1, coveredFlows: 3 });
    const links = await store().getRepository(CoverageLinkRecord).find({ where: { repositoryId }, order: { flowKey: 'ASC' } });
    expect(links.map((link) => [link.flowKey, link.source])).toEqual([['add-note', 'built'], ['search', 'built'], ['sign-in', 'linked']]);
    expect(Object.values(steps.calls)).toEqual([1, 1, 1, 1, 1]);
    expect(steps.folders.every((folder) => !existsSync(folder))).toBe(true);
    const events = await harness.events(id);
    expect(events.filter((event) => event.type === 'step.finished').map((event) => event.data.step)).toEqual(['fetch', 'index', 'discover', 'coverage', 'build']);
    expect(events.at(-1)?.type).toBe('ingestion.succeeded');
  }, TIMEOUT);

  it('re-indexes incrementally from the stored index and keeps flow keys', async () => {
    const steps = testSteps([flow('search')]);
    await harness.worker({ ports: steps.ports, catalog: { maxBuilds: 0 } });
    const first = await harness.start(organizationId, repositoryId);
    await ended(first);
    const second = await harness.start(organizationId, repositoryId, 'c'.repeat(40));
    const done = await ended(second);
    expect(done).toMatchObject({ status: 'succeeded', commitSha: 'c'.repeat(40) });
    expect(done.counts).toMatchObject({ filesRead: 0, filesReused: 1 });
    expect((await store().getRepository(RepositoryFlow).findBy({ repositoryId })).map((row) => [row.flowKey, row.ingestionRunId])).toEqual([['search', second]]);
  }, TIMEOUT);

  // A second process shares the store only on MySQL (the embedded SQLite default is one process).
  const killable = dialect === 'mysql' ? (['fetch', 'index', 'crawl', 'discover', 'build'] as const) : [];
  if (killable.length > 0) describe.each(killable)('a worker SIGKILLed in %s', (killedIn) => {
    it('is resumed at that step by another worker; no finished step runs again', async () => {
      const child = spawnTestChild('./onboarding-worker.ts', { CHILD_DATABASE_URL: testMysqlUrl(), CHILD_HANG_STEP: killedIn, CHILD_LOCK_MS: '1500' });
      try {
        await child.waitFor((event) => event.event === 'ready', 30_000);
        const id = await harness.start(organizationId, repositoryId);
        await child.waitFor((event) => event.event === 'hung', 30_000);
        await child.stop('SIGKILL');
        const before = (await harness.events(id)).length;

        const steps = testSteps(KILL_TEST_FLOWS());
        await harness.worker({ ports: steps.ports, lockLifetimeMs: 1_500, catalog: { maxBuilds: 1 } });
        await eventually(async () => {
          await finishChildren(id, () => 'passed');
          return (await run(id)).status === 'succeeded';
        }, 'the second worker to finish the ingestion').catch(async (error: unknown) => {
          throw new Error(`${String(error)}: ${JSON.stringify(await harness.events(id))}`);
        });

        const killedCalls = (step: string) => child.events.filter((event) => event.event === 'called' && event.step === step).length;
        const total = (step: StepName) => killedCalls(step) + steps.calls[step];
        // Fetch and index are one unit (a temporary folder does not outlive a crash): killed in index fetches again.
        const again = killedIn === 'index' ? ['fetch', 'index'] : [killedIn];
        for (const step of ['fetch', 'index', 'crawl', 'discover', 'linkCoverage'] as StepName[]) {
          expect([step, total(step)]).toEqual([step, again.includes(step) ? 2 : 1]);
        }
        const events = await harness.events(id);
        expect(events.length).toBeGreaterThan(before);
        expect(events.filter((event) => event.type === 'step.finished').map((event) => event.data.step)).toEqual(['fetch', 'index', 'discover', 'coverage', 'build']);
        if (killedIn !== 'index' && killedIn !== 'build') {
          const step = killedIn === 'crawl' ? 'discover' : killedIn;
          expect(events.filter((event) => event.type === 'step.resumed').map((event) => event.data.step)).toEqual([step]);
        }
        // One child however many attempts asked for it: the create is keyed by the ingestion and the flow.
        expect(await store().getRepository(Job).countBy({ ingestionRunId: id })).toBe(1);
        expect(steps.folders.every((folder) => !existsSync(folder))).toBe(true);
      } finally {
        await child.stop('SIGKILL');
      }
    }, TIMEOUT);
  });

  it('waits while live execution is paused, says so, and goes on once it is resumed', async () => {
    const steps = testSteps([flow('search')]);
    await setCapabilityPaused(store(), 'live', true, organizationId);
    await harness.worker({ ports: steps.ports, catalog: { maxBuilds: 0 } });
    const id = await harness.start(organizationId, repositoryId);
    const waiting = await eventually(async () => { const row = await run(id); return row.status === 'waiting' && row; }, 'the ingestion to wait');
    expect(waiting).toMatchObject({ waitingFor: 'live', step: 'index' });
    expect(steps.calls).toMatchObject({ fetch: 1, index: 1, crawl: 0 });
    const said = (await harness.events(id)).find((event) => event.type === 'ingestion.waiting');
    expect(said?.data).toMatchObject({ step: 'discover', capability: 'live' });

    await setCapabilityPaused(store(), 'live', false, organizationId);
    expect(await ended(id)).toMatchObject({ status: 'succeeded', waitingFor: null });
    expect(steps.calls).toMatchObject({ fetch: 1, index: 1, crawl: 1, discover: 1 });
    expect((await harness.events(id)).some((event) => event.type === 'ingestion.continued')).toBe(true);
  }, TIMEOUT);

  it('keeps both bounds with two workers taking turns on the ingestion', async () => {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const steps = testSteps(keys.map((key, n) => flow(key, { value: 10 - n })));
    const catalog = { maxBuilds: 5, maxConcurrency: 2, pollMs: 50 };
    await harness.worker({ ports: steps.ports, catalog });
    await harness.worker({ ports: steps.ports, catalog });
    const id = await harness.start(organizationId, repositoryId);
    // One child at a time ends, so the workers keep claiming while others still run.
    await eventually(async () => {
      const [child] = await store().getRepository(Job).find({ where: { ingestionRunId: id, status: 'queued' }, order: { createdAt: 'ASC' }, take: 1 });
      if (child) await store().getRepository(Job).update({ id: child.id }, { status: 'passed', updatedAt: new Date() });
      return (await run(id)).status === 'succeeded';
    }, 'the ingestion to succeed');

    const builds = await store().getRepository(CatalogBuild).findBy({ ingestionRunId: id });
    expect(builds.map((build) => build.flowKey).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    let running = 0;
    let most = 0;
    for (const event of await harness.events(id)) {
      if (event.type === 'build.started') running += 1;
      if (event.type === 'build.finished') running -= 1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
    expect(await store().getRepository(Job).countBy({ ingestionRunId: id, id: In(builds.map((build) => build.jobId!)) })).toBe(5);
  }, TIMEOUT);
});
