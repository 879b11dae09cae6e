import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi } from '../../support/api-server.js';
import { testMysqlUrl } from '../../support/databases.js';
import { useTestStore } from '../../support/dialects.js';
import { QA_ENTRY } from '../../support/qa-cli.js';
import { startTestWorker } from '../../support/qa-worker.js';

const LOCK_MS = 2_000;

interface Scene {
  baseUrl: string;
  api: Awaited<ReturnType<typeof startTestApi>>;
  key: string;
  repositoryId: string;
  /** Resolves when the target has seen its first page request (which never gets an answer). */
  firstRequest: Promise<void>;
  pageRequests(): number;
  orders(): number;
  /** Kills the real `qa worker` process and waits for it to exit. */
  killWorker(): Promise<void>;
  /** Another worker, started once the dead one's lock has expired; followed to the end of the job's events. */
  rescue(jobId: string): Promise<{ index: number; type: string; data: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

/**
 * A target whose first page request hangs (the worker is killed while it waits; later requests are answered with
 * `page`, and `/order` counts orders), the API, and the real `qa worker` process on the same database.
 */
async function startScene(store: () => DataSource, artifactsDir: string, page: string): Promise<Scene> {
  let pageRequests = 0;
  let orders = 0;
  const hanging: ServerResponse[] = [];
  let firstRequestSeen!: () => void;
  const firstRequest = new Promise<void>((resolve) => (firstRequestSeen = resolve));
  const target = createServer((req, res) => {
    if (req.url?.startsWith('/order')) {
      orders += 1;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Ordered</title><main><h1>Thanks</h1></main></html>');
    }
    if (req.url !== '/') return void res.writeHead(404).end();
    pageRequests += 1;
    if (pageRequests === 1) {
      hanging.push(res);
      firstRequestSeen();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  const api = await startTestApi(store(), { artifacts: createFileArtifactStorage(artifactsDir) });
  const { key, organization } = await createApiKey(store(), 'acme');
  const repositoryId = await insertRepository(store(), organization.id, { baseUrl });
  const child = spawn(process.execPath, [QA_ENTRY, 'worker'], {
    env: {
      ...process.env, NODE_OPTIONS: '', DATABASE_URL: testMysqlUrl(), ARTIFACTS_DIR: artifactsDir, QUEUE_LOCK_LIFETIME_MS: String(LOCK_MS),
      QUEUE_POLL_INTERVAL_MS: '50', LOG_LEVEL: 'silent', REDIS_URL: '',
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let rescuer: Awaited<ReturnType<typeof startTestWorker>> | undefined;
  return {
    baseUrl,
    api,
    key,
    repositoryId,
    firstRequest,
    pageRequests: () => pageRequests,
    orders: () => orders,
    async killWorker() {
      child.kill('SIGKILL');
      await exited;
    },
    async rescue(jobId) {
      rescuer = await startTestWorker(store(), { lockLifetimeMs: LOCK_MS, artifactsDir });
      try {
        const stream = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
        return (await stream.text()).trim().split('\n').map((line) => JSON.parse(line) as { index: number; type: string; data: Record<string, unknown> });
      } catch (error) {
        // Once seen in CI on a loaded machine (not reproduced since): say how far the job got, not only that it timed out.
        const view = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
        const events = (view.body.events as { type: string }[] | undefined)?.map((event) => event.type).join(', ');
        throw new Error(`the job did not end within 60 s of the rescuer's start: status ${String(view.body.job?.status)}, events ${events}`, { cause: error });
      }
    },
    async close() {
      child.kill('SIGKILL');
      for (const res of hanging) res.destroy();
      await rescuer?.stop();
      await api.close();
      target.closeAllConnections();
      target.close();
    },
  };
}

describe('QA-run workflow resumed after its worker died', () => {
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-resume-artifacts-'));
  afterAll(() => rmSync(artifactsDir, { recursive: true, force: true }));
  const store = useTestStore('mysql');

  it('is finished by another worker, and every event is written once', async () => {
    const scene = await startScene(store, artifactsDir, '<!doctype html><html lang="en"><title>Shop</title><main><h1>Plans</h1></main></html>');
    try {
      const created = await callApi(scene.api.base, 'POST', '/api/jobs', {
        projectId: scene.repositoryId, naturalLanguageTask: 'Open the home page', baseUrl: scene.baseUrl, trigger: 'cli',
      }, scene.key);
      expect(created.status).toBe(202);
      const jobId = created.body.jobId as string;
      await scene.firstRequest;
      await scene.killWorker();

      const events = await scene.rescue(jobId);

      // The dead worker's step.started stays (it happened); the new attempt runs the plan again in a new browser
      // context (a page cannot be resumed) and says so; nothing is written twice.
      expect(events.map((event) => event.type)).toEqual([
        'job.created', 'job.queued', 'job.started', 'step.started', 'job.resumed', 'step.started', 'artifact.created', 'step.passed', 'artifact.created', 'check.compiled', 'job.passed',
      ]);
      expect(events.map((event) => event.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(events[3]!.data).toMatchObject({ index: 0, attempt: 1 });
      expect(events[4]!.data).toEqual({ attempt: 2 });
      expect(events[5]!.data).toMatchObject({ index: 0, attempt: 2 });
      const view = await callApi(scene.api.base, 'GET', `/api/jobs/${jobId}`, undefined, scene.key);
      expect(view.body.job.status).toBe('passed');
      expect((view.body.artifacts as { kind: string }[]).map((artifact) => artifact.kind)).toEqual(['screenshot', 'trace']);
      expect(scene.pageRequests()).toBe(2);
    } finally {
      await scene.close();
    }
  });

  it('is not repeated when the check may cause a real side effect the answers allowed', async () => {
    const scene = await startScene(
      store,
      artifactsDir,
      '<!doctype html><html lang="en"><title>Shop</title><main><form action="/order"><button>Place order</button></form></main></html>',
    );
    try {
      const asked = await callApi(scene.api.base, 'POST', '/api/jobs', {
        projectId: scene.repositoryId, naturalLanguageTask: 'Open the home page and click the "Place order" button', baseUrl: scene.baseUrl, trigger: 'cli',
      }, scene.key);
      expect(asked.body.status).toBe('review_required');
      const answered = await callApi(scene.api.base, 'POST', `/api/jobs/${asked.body.jobId as string}/clarifications`, { answers: ['Yes, place it'] }, scene.key);
      expect(answered.status).toBe(202);
      const jobId = answered.body.jobId as string;
      await scene.firstRequest;
      await scene.killWorker();

      const events = await scene.rescue(jobId);

      expect(events.map((event) => event.type)).toEqual(['job.created', 'job.queued', 'job.started', 'step.started', 'job.resumed', 'job.errored']);
      expect(events.at(-1)!.data.reason).toMatch(/^The run stopped after step 1 \(Go to \/\) had started, and this check may cause a real side effect .*start a new job to run it again$/);
      const view = await callApi(scene.api.base, 'GET', `/api/jobs/${jobId}`, undefined, scene.key);
      expect(view.body.job.status).toBe('errored');
      // The rescuer opened no page and placed no order.
      expect(scene.pageRequests()).toBe(1);
      expect(scene.orders()).toBe(0);
    } finally {
      await scene.close();
    }
  });
});
