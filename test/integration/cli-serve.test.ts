import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../src/config.js';
import { createApiKey } from '../../src/identity/api-keys.js';
import { openStore } from '../../src/store/open-store.js';
import { startDemoApp, type DemoApp } from '../fixtures/demo-app/index.js';
import { insertRepository } from '../support/check-fixtures.js';
import { dropMysqlDatabase, testDialects, testMysqlUrl } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { freePort, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

const TASK = 'Check that the pricing page lists three plans';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
/** Two real processes, a real browser run in one of them, on a machine that may be three times slower. */
const TEST_TIMEOUT_MS = 180_000;

interface QueueRow {
  locked_at: unknown;
  last_run_at: unknown;
  last_finished_at: unknown;
  last_modified_by: string | null;
}

/** `qa serve` stages work and runs none of it: the job processors live in `qa worker` (or `qa start`). */
describe('qa serve (the real process)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-test-serve-'));
  const processes: QaProcess[] = [];
  let demo: DemoApp;

  beforeAll(async () => {
    demo = await startDemoApp();
  });

  afterAll(async () => {
    for (const running of processes) {
      if (running.child.exitCode === null) {
        running.child.kill('SIGKILL');
        await running.exited;
      }
    }
    await demo?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function start(verb: 'serve' | 'worker', env: Record<string, string>): Promise<QaProcess> {
    const started = spawnQa([verb], { SHUTDOWN_GRACE_MS: '2000', ARTIFACTS_DIR: join(folder, 'artifacts'), ...env });
    processes.push(started);
    const ready = () => started.run.stdout.includes('running; stop with SIGTERM or SIGINT');
    await until(() => ready() || started.child.exitCode !== null, `qa ${verb} to run`, 60_000);
    if (!ready()) throw new Error(`qa ${verb} exited before running: ${(await started.exited).stderr}`);
    return started;
  }

  async function stop(started: QaProcess): Promise<void> {
    started.child.kill('SIGTERM');
    const run = await started.exited;
    expect([run.code, run.stderr]).toEqual([0, '']);
  }

  /** `qa serve` on a free loopback port, and the base URL of its API. */
  async function startServe(env: Record<string, string>): Promise<{ serve: QaProcess; base: string }> {
    const port = await freePort();
    return { serve: await start('serve', { ...env, PORT: String(port) }), base: `http://127.0.0.1:${port}` };
  }

  /** A store of the test's own beside the processes: an API key and the demo app as a connected repository. */
  async function seed(database: DatabaseConfig): Promise<{ store: DataSource; key: string; repositoryId: string }> {
    const store = await openStore({ database }, silentLogger());
    const issued = await createApiKey(store, 'acme');
    return { store, key: issued.key, repositoryId: await insertRepository(store, issued.organization.id, { baseUrl: demo.url }) };
  }

  const call = async (base: string, key: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const createJob = (base: string, key: string, repositoryId: string) =>
    call(base, key, '/api/jobs', { projectId: repositoryId, naturalLanguageTask: TASK, baseUrl: demo.url, trigger: 'cli' });
  const queueRow = async (store: DataSource, id: string): Promise<QueueRow> => {
    const [row] = (await store.query('SELECT locked_at, last_run_at, last_finished_at, last_modified_by FROM agenda_jobs WHERE id = ?', [id])) as QueueRow[];
    if (!row) throw new Error(`no queue job ${id}`);
    return row;
  };

  /** Serve polls the queue every 50 ms: were it processing jobs, it would claim this one within that second. */
  async function expectStagedOnly(base: string, key: string, store: DataSource, created: { jobId: string; workflowIdentity: string }) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await queueRow(store, created.workflowIdentity)).toMatchObject({ locked_at: null, last_run_at: null, last_finished_at: null });
    const view = await call(base, key, `/api/jobs/${created.jobId}`);
    expect([view.body.job.status, view.body.events.map((event: { type: string }) => event.type)]).toEqual(['queued', ['job.created', 'job.queued']]);
  }

  it(
    'answers /readyz and stages a runnable job without running it: no job processors, no browser',
    async () => {
      const database: DatabaseConfig = { kind: 'sqlite', path: join(folder, 'serve.sqlite') };
      const { store, key, repositoryId } = await seed(database);
      try {
        // A browser path that does not exist: serve must never need one.
        const { serve, base } = await startServe({ SQLITE_PATH: database.path, QUEUE_POLL_INTERVAL_MS: '50', BROWSER_EXECUTABLE_PATH: join(folder, 'no-browser') });
        expect((await call(base, key, '/readyz')).body).toEqual({ status: 'ready' });
        const created = await createJob(base, key, repositoryId);
        expect(created.status).toBe(202);
        await expectStagedOnly(base, key, store, created.body as { jobId: string; workflowIdentity: string });
        await stop(serve);
        expect(serve.run.stdout).toContain('"msg":"listening"');
        expect(serve.run.stdout).not.toContain('worker started');
      } finally {
        await store.destroy();
      }
    },
    TEST_TIMEOUT_MS,
  );

  // The split deployment docs/operations.md describes: serve and worker on one MySQL database, Redis telling the worker of
  // new jobs, one artifacts folder. Part of a run only when it covers MySQL (TEST_DIALECTS), like forEachDialect.
  if (testDialects().includes('mysql')) it(
    'serve and a worker in another process on MySQL: the worker runs what serve staged, woken through Redis',
    async () => {
      const url = testMysqlUrl('_serve');
      await dropMysqlDatabase(url);
      const { store, key, repositoryId } = await seed({ kind: 'mysql', url });
      try {
        const shared = { DATABASE_URL: url, REDIS_URL };
        const { serve, base } = await startServe({ ...shared, QUEUE_POLL_INTERVAL_MS: '50' });
        expect((await call(base, key, '/readyz')).body).toEqual({ status: 'ready' });
        const waiting = await createJob(base, key, repositoryId);
        expect(waiting.status).toBe(202);
        await expectStagedOnly(base, key, store, waiting.body as { jobId: string; workflowIdentity: string });

        // The worker takes the waiting job as it starts, then polls only once a minute: a job created afterwards
        // reaches it within this test only through serve's announcement on Redis.
        const metricsPort = await freePort();
        const worker = await start('worker', { ...shared, QUEUE_POLL_INTERVAL_MS: '60000', METRICS_PORT: String(metricsPort) });
        const first = await finished(base, key, waiting.body.jobId as string);
        expect(first.job.status).toBe('passed');
        const announced = await createJob(base, key, repositoryId);
        expect(announced.status).toBe(202);
        // Well under the worker's poll interval, even on a slow machine.
        expect((await finished(base, key, announced.body.jobId as string, 30_000)).job.status).toBe('passed');

        // The worker wrote the artifacts; serve hands them out from the shared folder.
        const artifacts = first.artifacts as { downloadPath: string; sizeBytes: number }[];
        expect(artifacts.length).toBeGreaterThan(0);
        const download = await fetch(`${base}${artifacts[0]!.downloadPath}`, { headers: { authorization: `Bearer ${key}` } });
        expect([download.status, (await download.arrayBuffer()).byteLength]).toEqual([200, artifacts[0]!.sizeBytes]);

        // Each role counts its own part: serve created both jobs, the worker (on METRICS_PORT, it has no API) ran them.
        const metricsOf = async (at: string) => (await (await fetch(`${at}/metrics`)).text()).split('\n');
        expect(await metricsOf(base)).toContain('qa_jobs_created_total{trigger="cli"} 2');
        const workerBase = `http://127.0.0.1:${metricsPort}`;
        expect(await metricsOf(workerBase)).toEqual(expect.arrayContaining(['qa_jobs_finished_total{trigger="cli",outcome="passed"} 2', 'qa_queue_claims_total{kind="qa-run"} 2', 'qa_browser_launches_total{outcome="ok"} 1']));
        expect((await call(workerBase, key, '/readyz')).body).toEqual({ status: 'ready' });

        await stop(worker);
        await stop(serve);
        expect(serve.run.stdout).not.toContain('worker started');
      } finally {
        await store.destroy();
        await dropMysqlDatabase(url);
      }
    },
    TEST_TIMEOUT_MS,
  );

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
  async function finished(base: string, key: string, jobId: string, withinMs = 90_000): Promise<Record<string, any>> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const view = await call(base, key, `/api/jobs/${jobId}`);
      if (['passed', 'failed', 'errored', 'cancelled'].includes(view.body.job.status as string)) return view.body;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${String(view.body.job.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
