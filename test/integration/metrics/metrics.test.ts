import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createHealthRouter, databaseReadiness } from '../../../src/api/health.router.js';
import { startAll, type RunningHttpRole } from '../../../src/compose/index.js';
import { queueReadiness } from '../../../src/compose/readiness.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi } from '../../support/api-server.js';
import { signedDelivery } from '../../support/codehost-deliveries.js';
import { useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { testConfig } from '../../support/service-config.js';
import express from 'express';

const TOKEN = 'metrics-token-0123456789';
const SECRET = 'codehost-webhook-secret';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** One sample of the exposition: its name and labels as written, and its value. */
type Samples = Map<string, number>;

/** Prometheus's text format, sample lines only: `name{a="x",b="y"} value`, keyed by `name{a="x",b="y"}` as written. */
function parse(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** How much each sample moved between two scrapes (a sample absent before counts from 0). */
const moved = (before: Samples, after: Samples, key: string): number => (after.get(key) ?? 0) - (before.get(key) ?? 0);

/** A page to test: one heading. */
async function startPage(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Home</title><h1>Welcome home</h1>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe('GET /metrics and /readyz of a running service', () => {
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-metrics-artifacts-'));
  let page: Awaited<ReturnType<typeof startPage>>;
  let service: RunningHttpRole;
  let base: string;

  // Declared before the store's hooks: Jest runs a block's afterAll hooks in the order they are declared, and the
  // service stops before its store closes.
  afterAll(async () => {
    await service?.stop();
    page?.server.close();
    page?.server.closeAllConnections();
    rmSync(artifactsDir, { recursive: true, force: true });
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    page = await startPage();
    // `qa start`: the API and the processors in one process, one registry.
    const config = testConfig({
      queue: { pollIntervalMs: 50, lockLifetimeMs: 30_000 },
      worker: { concurrency: 1, shutdownGraceMs: 5_000 },
      artifacts: { dir: artifactsDir },
      browser: { navigationTimeoutMs: 15_000, stepTimeoutMs: 3_000 },
      codehost: { webhookSecret: SECRET },
      metrics: { token: TOKEN },
    });
    service = await startAll(config, silentLogger(), { dataSource: store(), readSecret: () => undefined });
    base = `http://127.0.0.1:${service.port}`;
  });

  const scrape = async (): Promise<{ text: string; samples: Samples }> => {
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    return { text, samples: parse(text) };
  };

  /** Follows a job's event stream to its end (the stream closes when the job finishes). */
  async function followToEnd(jobId: string, key: string): Promise<string[]> {
    const response = await fetch(`${base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    return text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { type: string }).type);
  }

  it('moves each figure as the work did: requests by route pattern, jobs, claims, the run and its steps, the browser, webhooks', async () => {
    const { key, organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { baseUrl: page.url });
    const before = (await scrape()).samples;

    const create = (task: string) => callApi(base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: page.url, trigger: 'cli' }, key);
    const run = await create('Open the home page and check that the heading says "Welcome home"');
    expect(run.status).toBe(202);
    expect(await followToEnd(run.body.jobId as string, key)).toContain('job.passed');
    const waiting = await create('Delete the demo account');
    expect(waiting.body.status).toBe('review_required');
    const cancelled = await callApi(base, 'POST', `/api/jobs/${waiting.body.jobId as string}/cancel`, undefined, key);
    expect(cancelled.status).toBe(200);
    expect((await callApi(base, 'GET', `/api/jobs/${crypto.randomUUID()}`, undefined, key)).status).toBe(404);
    expect((await callApi(base, 'GET', `/no/such/${crypto.randomUUID()}`, undefined, null)).status).toBe(404);
    // The same delivery twice: accepted, then a duplicate or in progress (the worker may be handling the first).
    const delivery = await signedDelivery(SECRET, 'ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
    const receipts: string[] = [];
    for (let round = 0; round < 2; round++) {
      const posted = await fetch(`${base}/api/webhooks/codehost`, { method: 'POST', headers: delivery.headers, body: delivery.body });
      receipts.push(((await posted.json()) as { receipt: string }).receipt);
    }
    expect(receipts[0]).toBe('accepted');

    // A passing run's verdict is written while its browser context closes (qa-run/run-step.ts): its attempt, and so
    // the attempt's figure and the open contexts, end a moment after the job did. Scraped until they have.
    let scrapes = 0;
    let latest: Awaited<ReturnType<typeof scrape>>;
    const deadline = Date.now() + 10_000;
    for (;;) {
      latest = await scrape();
      scrapes += 1;
      if (moved(before, latest.samples, 'qa_run_attempt_duration_seconds_count{outcome="passed"}') >= 1 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { text, samples: after } = latest;
    const counted = (key: string) => moved(before, after, key);
    expect({
      created: counted('qa_jobs_created_total{trigger="cli"}'),
      passed: counted('qa_jobs_finished_total{trigger="cli",outcome="passed"}'),
      cancelled: counted('qa_jobs_finished_total{trigger="cli",outcome="cancelled"}'),
      claims: counted('qa_queue_claims_total{kind="qa-run"}'),
      takeovers: counted('qa_queue_lock_takeovers_total{kind="qa-run"}'),
      attempts: counted('qa_run_attempt_duration_seconds_count{outcome="passed"}'),
      started: counted('qa_workflow_step_duration_seconds_count{workflow="qa-run",step="start"}'),
      finished: counted('qa_workflow_step_duration_seconds_count{workflow="qa-run",step="finish"}'),
      launches: after.get('qa_browser_launches_total{outcome="ok"}'),
      creates: [...new Set([run.status, waiting.status])].reduce((sum, status) => sum + counted(`qa_http_requests_total{route="/api/jobs",method="POST",status="${status}"}`), 0),
      cancels: counted('qa_http_requests_total{route="/api/jobs/:id/cancel",method="POST",status="200"}'),
      notFound: counted('qa_http_requests_total{route="/api/jobs/:id",method="GET",status="404"}'),
      unmatched: counted('qa_http_requests_total{route="unmatched",method="GET",status="404"}'),
      accepted: counted('qa_webhook_receipts_total{provider="codehost",outcome="accepted"}'),
      again: counted(`qa_webhook_receipts_total{provider="codehost",outcome="${receipts[1]!}"}`),
    }).toEqual({
      created: 2, passed: 1, cancelled: 1, claims: 1, takeovers: 0, attempts: 1, started: 1, finished: 1, launches: 1,
      creates: 2, cancels: 1, notFound: 1, unmatched: 1, accepted: 1, again: 1,
    });
    // Each scrape's own request is counted by the next one.
    expect(counted('qa_http_requests_total{route="/metrics",method="GET",status="200"}')).toBe(scrapes);
    // The run's context is closed; the pool keeps one ready for the next run.
    expect(after.get('qa_browser_contexts_open')).toBe(1);
    // Node's defaults are there too.
    expect(after.has('process_cpu_seconds_total')).toBe(true);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');

    // Bounded labels: no id, no path, no tenant name in any of them.
    const values = [...text.matchAll(/="([^"]*)"/g)].map((match) => match[1]!);
    expect(values.filter((value) => UUID.test(value) || value.includes('acme') || value.includes('/no/such'))).toEqual([]);
  });

  it('asks for the bearer token when METRICS_TOKEN is set, and compares it whole', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`]) {
      const response = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
      expect([authorization, response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([authorization, 401, 'metrics.unauthorized']);
    }
  });

  it('says ready with the shape it always had', async () => {
    expect((await callApi(base, 'GET', '/readyz', undefined, null)).body).toEqual({ status: 'ready' });
  });
});

describe('/readyz when the database goes away', () => {
  const store = useTestStore('mysql');

  it('answers 503 naming the database, then the queue behind it', async () => {
    // The store reached through a TCP relay that the test closes: the database "goes away" under an open DataSource.
    const sockets = new Set<Socket>();
    const relay = createTcpServer((client) => {
      const upstream = connect(3306, '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const { database } = store().options as { database: string };
    const relayed = new DataSource({ type: 'mariadb', host: '127.0.0.1', port: (relay.address() as AddressInfo).port, username: 'root', database });
    await relayed.initialize();
    const app = express().use(createHealthRouter([databaseReadiness(relayed), queueReadiness(relayed)]));
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const readyz = async () => {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    try {
      expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' } });
      relay.close();
      for (const socket of sockets) socket.destroy();
      expect(await readyz()).toEqual({
        status: 503,
        body: { status: 'unavailable', dependency: 'database', reason: 'database unreachable', checks: { database: 'database unreachable', queue: 'queue table unreachable' } },
      });
    } finally {
      server.close();
      server.closeAllConnections();
      await relayed.destroy().catch(() => undefined);
    }
  });
});
