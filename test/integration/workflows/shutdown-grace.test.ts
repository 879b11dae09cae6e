/**
 * Issue 11, section 2: SIGTERM lets running browser runs finish. A real `qa worker` process runs a replay whose
 * second page answers only when the test says so, and gets a real SIGTERM while the browser waits for it. With a
 * long enough SHUTDOWN_GRACE_MS the run finishes in the same browser and passes; with a short one it is handed back
 * at the end of the grace period and another worker resumes it. No job is failed by a shutdown.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledCheckSchema } from '../../../src/core/check.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { insertActiveCheck, jobsHeldBy, logLines, startQaWorker, type QaWorkerProcess } from '../../support/backlog.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { testMysqlUrl } from '../../support/databases.js';
import { useTestStore } from '../../support/dialects.js';
import { until } from '../../support/qa-cli.js';
import { auditRuns } from '../../support/run-audit.js';

/** Two real processes in turn with a real browser, on a machine that may be three times slower. */
const TEST_TIMEOUT_MS = 180_000;

/** Open the home page, then the slow page, then check what it says: read-only, so a resumed run starts again. */
const SLOW_CHECK = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Open the home page', url: '/' } },
    { step: { action: 'navigate', description: 'Open the slow page', url: '/slow' } },
    { step: { action: 'expectText', description: 'The slow page answered', text: 'Slow page answered' } },
  ],
  successCriteria: [],
});

const page = (title: string) => `<!doctype html><html lang="en"><title>${title}</title><main><h1>${title}</h1></main></html>`;

/** A target whose `/slow` requests wait until `answerSlow()`; `holdSlow` decides per request whether to hold it. */
interface SlowTarget {
  url: string;
  /** Resolves when the n-th (1-based) `/slow` request has arrived. */
  slowRequest(n: number): Promise<void>;
  slowRequests(): number;
  /** Answers the held `/slow` requests. */
  answerSlow(): void;
  close(): Promise<void>;
}

async function startSlowTarget(holdSlow: (n: number) => boolean): Promise<SlowTarget> {
  const held: ServerResponse[] = [];
  const arrivals: (() => void)[] = [];
  const arrived: Promise<void>[] = Array.from({ length: 4 }, (_, index) => new Promise<void>((resolve) => (arrivals[index] = resolve)));
  let slow = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('Home'));
    if (req.url !== '/slow') return void res.writeHead(404).end();
    slow += 1;
    arrivals[slow - 1]?.();
    if (holdSlow(slow)) held.push(res);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow page answered'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    slowRequest: (n) => arrived[n - 1]!,
    slowRequests: () => slow,
    answerSlow() {
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow page answered'));
    },
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a qa worker stopped by SIGTERM during a slow page [mysql]', () => {
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-shutdown-artifacts-'));
  const workers: QaWorkerProcess[] = [];
  const targets: SlowTarget[] = [];
  let api: TestApi;

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.signal('SIGKILL')));
    await Promise.all(targets.splice(0).map((target) => target.close()));
  });
  // Declared before the store, so it runs before the store closes.
  afterAll(async () => {
    await api?.close();
    rmSync(artifactsDir, { recursive: true, force: true });
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    api = await startTestApi(store());
  });

  async function worker(graceMs: number): Promise<QaWorkerProcess> {
    const started = await startQaWorker({
      DATABASE_URL: testMysqlUrl(),
      ARTIFACTS_DIR: artifactsDir,
      QUEUE_LOCK_LIFETIME_MS: '3000',
      QUEUE_POLL_INTERVAL_MS: '100',
      WORKER_CONCURRENCY: '2',
      SHUTDOWN_GRACE_MS: String(graceMs),
    });
    workers.push(started);
    return started;
  }

  /** A replay of SLOW_CHECK on `target`, created through the API: its job id and its queue job's id. */
  async function createReplay(target: SlowTarget): Promise<{ jobId: string; queueJobId: string }> {
    const { key, organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { baseUrl: target.url });
    const checkId = await insertActiveCheck(store(), organization.id, repositoryId, SLOW_CHECK);
    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, testId: checkId, baseUrl: target.url, networkAllowlist: [], trigger: 'cli' }, key);
    expect(created.status).toBe(202);
    return { jobId: created.body.jobId as string, queueJobId: created.body.workflowIdentity as string };
  }

  async function ended(jobId: string, withinMs = 90_000): Promise<string> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const [{ status }] = (await store().query('SELECT status FROM jobs WHERE id = ?', [jobId])) as { status: string }[];
      if (['passed', 'failed', 'errored', 'cancelled'].includes(status)) return status;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const eventTypes = async (jobId: string) =>
    ((await store().query('SELECT type FROM job_events WHERE job_id = ? ORDER BY seq', [jobId])) as { type: string }[]).map((event) => event.type);

  it(
    'with a grace period long enough, the run finishes in the same browser and passes, and the process exits 0',
    async () => {
      const target = await startSlowTarget(() => true);
      targets.push(target);
      const running = await worker(60_000);
      const { jobId } = await createReplay(target);
      await target.slowRequest(1);

      running.qa.child.kill('SIGTERM');
      await until(() => logLines(running.qa.run, 'worker stopping').length > 0, 'the worker to start stopping');
      // Playwright's own SIGTERM handler closed the browser 0.19 s after the signal: give it far longer than that.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      target.answerSlow();
      const exit = await running.qa.exited;

      expect([exit.code, exit.stderr]).toEqual([0, '']);
      expect(await ended(jobId)).toBe('passed');
      // A passing replay keeps no screenshot and no trace (qa-run/evidence.ts).
      expect(await eventTypes(jobId)).toEqual([
        'job.created', 'job.queued', 'job.started',
        'step.started', 'step.passed',
        'step.started', 'step.passed',
        'step.started', 'step.passed',
        'job.passed',
      ]);
      expect(target.slowRequests()).toBe(1);
      expect(logLines(exit, 'worker stopped')).toEqual([expect.objectContaining({ abandoned: 0, unsettled: 0 })]);
      expect(await jobsHeldBy(store(), running.ownerPattern)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'with a short grace period, the run is handed back, another worker resumes it and it passes: nothing fails',
    async () => {
      // The first visit of the slow page never gets an answer; the resumed run's does at once.
      const target = await startSlowTarget((n) => n === 1);
      targets.push(target);
      const first = await worker(1_000);
      const { jobId, queueJobId } = await createReplay(target);
      await target.slowRequest(1);

      const exit = await first.signal('SIGTERM');
      expect([exit.code, exit.stderr]).toEqual([0, '']);
      expect(logLines(exit, 'run handed back for another worker to resume')).toEqual([expect.objectContaining({ jobId: queueJobId, held: true })]);
      expect(logLines(exit, 'worker stopped')).toEqual([expect.objectContaining({ abandoned: 1, unsettled: 0 })]);
      // Handed back as a crash would leave it, but at once: still running, unlocked, due, no failure counted.
      const [queued] = (await store().query(
        'SELECT a.locked_at, a.fail_count, a.next_run_at <= NOW(3) AS due FROM agenda_jobs a JOIN jobs j ON j.workflow_id = a.id WHERE j.id = ?',
        [jobId],
      )) as { locked_at: unknown; fail_count: number | null; due: number | string }[];
      expect([queued!.locked_at, queued!.fail_count ?? 0, Number(queued!.due)]).toEqual([null, 0, 1]);
      const [{ status }] = (await store().query('SELECT status FROM jobs WHERE id = ?', [jobId])) as { status: string }[];
      expect(status).toBe('running');
      expect(await eventTypes(jobId)).toEqual(['job.created', 'job.queued', 'job.started', 'step.started', 'step.passed', 'step.started']);

      const second = await worker(30_000);
      expect(await ended(jobId)).toBe('passed');
      const types = await eventTypes(jobId);
      expect(types.slice(6)).toEqual([
        'job.resumed',
        'step.started', 'step.passed',
        'step.started', 'step.passed',
        'step.started', 'step.passed',
        'job.passed',
      ]);
      const [audit] = await auditRuns(store(), [jobId]);
      expect(audit).toMatchObject({ attempts: [1, 2], resumed: 1, terminalEvents: 1, eventsAfterTerminal: 0, overlaps: 0, duplicateScreenshots: 0, lastAttemptPassedSteps: [1, 1, 1] });
      expect(target.slowRequests()).toBe(2);
      const stopped = await second.signal('SIGTERM');
      expect(stopped.code).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
