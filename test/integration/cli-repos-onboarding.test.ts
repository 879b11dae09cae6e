/**
 * What an onboarding shows, through the real API and the `qa` CLI: the repository's latest ingestion with its counts,
 * the ingestion in full, its NDJSON events (resumable with `after`), the coverage of the repository's flows; another
 * organization's ids and malformed ids answer 404 with their codes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../../src/identity/api-keys.js';
import { Check } from '../../src/store/entities/check.entity.js';
import { IngestionEvent } from '../../src/store/entities/ingestion-event.entity.js';
import { IngestionRun } from '../../src/store/entities/ingestion-run.entity.js';
import { Job } from '../../src/store/entities/job.entity.js';
import { callApi, startTestApi, type TestApi } from '../support/api-server.js';
import { insertRepository } from '../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../support/dialects.js';
import { eventually, flow, testSteps } from '../support/onboarding-steps.js';
import { onboardingHarness, type OnboardingHarness } from '../support/onboarding-worker.js';
import { qa } from '../support/qa-cli.js';

forEachDialect('onboarding through the API and qa repos', (dialect) => {
  const store = useTestStore(dialect);
  const folder = mkdtempSync(join(tmpdir(), 'qa-test-onboarding-cli-'));
  let api: TestApi;
  let harness: OnboardingHarness;
  let key: string;
  let otherKey: string;
  let repositoryId: string;
  let ingestionId: string;
  let checkId: string;

  beforeAll(async () => {
    api = await startTestApi(store());
  });
  afterAll(async () => {
    await api.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    harness = await onboardingHarness(store());
    const mine = await createApiKey(store(), 'acme');
    otherKey = (await createApiKey(store(), 'globex')).key;
    key = mine.key;
    repositoryId = await insertRepository(store(), mine.organization.id);
    checkId = '00000000-0000-4000-8000-0000000000aa';
    await store().getRepository(Check).insert({ id: checkId, organizationId: mine.organization.id, repositoryId, status: 'active', task: 'Sign in', version: 0 });
    const steps = testSteps(
      [flow('sign-in', { value: 5, name: 'Sign in' }), flow('search', { value: 3, name: 'Search' }), flow('browse', { value: 1, name: 'Browse' })],
      (checks) => checks.map((check) => ({ flowKey: 'sign-in', checkId: check.checkId, reason: 'route+controls' })),
    );
    await harness.worker({ ports: steps.ports, catalog: { maxBuilds: 2, maxConcurrency: 2 } });
    ingestionId = await harness.start(mine.organization.id, repositoryId);
    await eventually(async () => {
      const children = await store().getRepository(Job).findBy({ ingestionRunId: ingestionId, status: 'queued' });
      for (const child of children) await store().getRepository(Job).update({ id: child.id }, { status: child.task?.includes('search') ? 'passed' : 'failed', updatedAt: new Date() });
      return (await store().getRepository(IngestionRun).findOneByOrFail({ id: ingestionId })).status === 'succeeded';
    }, 'the ingestion to succeed');
  }, 90_000);
  afterEach(async () => harness.close());

  const ndjson = async (path: string) => {
    const response = await fetch(`${api.base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/x-ndjson']);
    return response.text();
  };
  const cli = (args: string[]) => qa(args, { QA_API_URL: api.base, QA_API_KEY: key, LOG_LEVEL: 'silent', SQLITE_PATH: join(folder, 'unused.sqlite') });

  it('answers the repository, the ingestion, its events and the coverage', async () => {
    const repository = await callApi(api.base, 'GET', `/api/repositories/${repositoryId}`, undefined, key);
    expect(repository.status).toBe(200);
    expect(repository.body.latestIngestion).toMatchObject({
      ingestionRunId: ingestionId, status: 'succeeded', step: 'build', commitSha: 'a'.repeat(40), error: null,
      counts: { routes: 3, flows: 3, edgeCases: 3, coveredFlows: 2, builds: 2, buildsPassed: 1, buildsFailed: 1 },
    });

    const detail = await callApi(api.base, 'GET', `/api/ingestions/${ingestionId}`, undefined, key);
    expect(detail.body.steps.map((step: { step: string }) => step.step)).toEqual(['fetch', 'index', 'crawl', 'discover', 'coverage', 'build']);
    // Both were claimed in one commit (CATALOG_MAX_CONCURRENCY 2), at the same time.
    expect(detail.body.builds.map((build: { flowKey: string; status: string }) => [build.flowKey, build.status]).sort()).toEqual([['browse', 'failed'], ['search', 'built']]);

    const events = await ndjson(`/api/ingestions/${ingestionId}/events`);
    const lines = events.trim().split('\n').map((line) => JSON.parse(line) as { index: number; type: string });
    expect(lines.map((line) => line.index)).toEqual(lines.map((_line, n) => n));
    expect(lines.at(-1)?.type).toBe('ingestion.succeeded');
    const after = await ndjson(`/api/ingestions/${ingestionId}/events?after=3`);
    expect(after.trim().split('\n').map((line) => (JSON.parse(line) as { index: number }).index)[0]).toBe(4);

    const coverage = await callApi(api.base, 'GET', `/api/repositories/${repositoryId}/coverage`, undefined, key);
    expect(coverage.body.summary).toEqual({ flows: 3, coveredFlows: 2, edgeCases: 3, coveredShare: 0.667 });
    expect(coverage.body.flows.map((item: { key: string; covered: boolean; checks: { reason: string }[] }) => [item.key, item.covered, item.checks.map((check) => check.reason)])).toEqual([
      ['sign-in', true, ['route+controls']],
      ['search', true, ['built']],
      ['browse', false, []],
    ]);
    // The rules named these flows (a model planner would say `model`, with its sentence).
    expect(coverage.body.flows.map((item: { namedBy: string; description: string | null }) => [item.namedBy, item.description])).toEqual([
      ['rules', null],
      ['rules', null],
      ['rules', null],
    ]);
  }, 60_000);

  it("answers 404 for another organization's ids and for malformed ones", async () => {
    const answers = await Promise.all([
      callApi(api.base, 'GET', `/api/ingestions/${ingestionId}`, undefined, otherKey),
      callApi(api.base, 'GET', `/api/ingestions/${ingestionId}/events`, undefined, otherKey),
      callApi(api.base, 'GET', `/api/repositories/${repositoryId}/coverage`, undefined, otherKey),
      callApi(api.base, 'GET', '/api/ingestions/not-an-id', undefined, key),
      callApi(api.base, 'GET', '/api/ingestions/%E0%A4%A/events', undefined, key),
      callApi(api.base, 'GET', `/api/ingestions/${ingestionId}/events?after=x`, undefined, key),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body?.error?.code])).toEqual([
      [404, 'ingestion.not_found'],
      [404, 'ingestion.not_found'],
      [404, 'repository.not_found'],
      [404, 'ingestion.not_found'],
      [404, 'ingestion.not_found'],
      [400, 'request.invalid'],
    ]);
  }, 60_000);

  // MySQL only: the `qa` client speaks HTTP to the routes above, which run on both dialects.
  if (dialect === 'mysql') it('prints them with qa repos get, follow and coverage; follow exits 1 on a failed ingestion', async () => {
    const got = await cli(['repos', 'get', repositoryId]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).latestIngestion.counts.flows).toBe(3);

    const followed = await cli(['repos', 'follow', ingestionId]);
    expect(followed.code).toBe(0);
    const printed = followed.stdout.trim().split('\n');
    expect(printed[0]).toMatch(/^\[0\] ingestion\.started/);
    expect(printed.map((line) => Number(/^\[(\d+)\]/.exec(line)?.[1]))).toEqual(printed.map((_line, n) => n));
    expect(printed.at(-1)).toMatch(/^\[\d+\] ingestion\.succeeded counts=\{.*"flows":3.*\}$/);

    const coverage = await cli(['repos', 'coverage', repositoryId]);
    expect(JSON.parse(coverage.stdout).summary.coveredFlows).toBe(2);

    const foreign = await cli(['repos', 'follow', '00000000-0000-4000-8000-000000000000']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/ingestion\.not_found/);

    // A failed ingestion exits 1 (what was followed failed); 2 is for usage and service errors, as above. These are
    // the rows the onboarding workflow leaves when its last attempt at a step fails (workflow.ts, recordFailure).
    const failedId = '00000000-0000-4000-8000-0000000000fa';
    const organizationId = (await store().getRepository(IngestionRun).findOneByOrFail({ id: ingestionId })).organizationId;
    const failure = { step: 'fetch', code: 'repository.fetch_failed', message: 'The clone answered 404', attempt: 3 };
    const at = new Date();
    await store().getRepository(IngestionRun).insert({
      id: failedId, organizationId, repositoryId, status: 'failed', step: 'fetch', errorCode: failure.code, errorMessage: failure.message, startedAt: at, finishedAt: at, updatedAt: at,
    });
    await store().getRepository(IngestionEvent).insert([
      { ingestionRunId: failedId, seq: 0, type: 'ingestion.started', at, data: {} },
      { ingestionRunId: failedId, seq: 1, type: 'ingestion.failed', at, data: failure },
    ]);

    const failed = await cli(['repos', 'follow', failedId]);
    expect(failed.code).toBe(1);
    expect(failed.stdout.trim().split('\n')).toEqual(['[0] ingestion.started', '[1] ingestion.failed step=fetch code=repository.fetch_failed message=The clone answered 404 attempt=3']);
    expect(failed.stderr).toContain(`Ingestion ${failedId} failed: repository.fetch_failed: The clone answered 404`);
  }, 60_000);
});
