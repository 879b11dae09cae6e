import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApiKey } from '../../../src/store/api-keys.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

/** A server on `localhost` (a host the runs do not allow unless told): it counts what reaches it. */
async function startCountingServer(): Promise<{ origin: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, hits, server };
}

/** A target whose only page redirects to `location` (the browser follows redirects without asking its routes). */
async function startRedirectingServer(location: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(302, { location }).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

const TERMINAL = new Set(['passed', 'failed', 'errored', 'cancelled']);

forEachDialect('QA-run workflow, first cut', (dialect) => {
  let demo: DemoApp;
  let external: Awaited<ReturnType<typeof startCountingServer>>;
  let worker: TestWorker;
  let api: TestApi;
  let key: string;
  let repositoryId: string;

  // Declared before the store, so it runs before the store closes (the worker releases its locks there).
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await demo?.close();
    external?.server.close();
  });
  const store = useTestStore(dialect);

  beforeAll(async () => {
    external = await startCountingServer();
    demo = await startDemoApp({ externalOrigin: external.origin });
    worker = await startTestWorker(store());
    api = await startTestApi(store(), { artifacts: worker.artifacts });
  });

  beforeEach(async () => {
    external.hits.length = 0;
    const { key: created, organization } = await createApiKey(store(), 'acme');
    key = created;
    repositoryId = randomUUID();
    await store().getRepository(ConnectedRepository).insert({
      id: repositoryId, organizationId: organization.id, provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop',
      defaultBranch: 'main', cloneUrl: 'https://code.example/acme/shop.git', baseUrl: demo.url, networkAllowlist: [],
      testValueSecretRefs: {}, evidenceProbeRefs: {}, revision: null,
    });
  });

  /** Creates a runnable job on `baseUrl` and reads its event stream to the end (the stream ends when the job does). */
  async function runJob(baseUrl: string, networkAllowlist: string[] = []) {
    const created = await callApi(api.base, 'POST', '/api/jobs', {
      projectId: repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl, networkAllowlist, trigger: 'cli',
    }, key);
    expect(created.status).toBe(202);
    const jobId = created.body.jobId as string;
    const stream = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    const lines = (await stream.text()).trim().split('\n').map((line) => JSON.parse(line) as { index: number; type: string; data: Record<string, unknown> });
    const view = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    expect(TERMINAL.has(view.body.job.status as string)).toBe(true);
    return { jobId, streamed: lines, view };
  }

  it('visits a clean page, keeps a screenshot, and passes; the history is in order and complete', async () => {
    const { jobId, streamed, view } = await runJob(`${demo.url}/pricing`);
    expect(view.body.job).toMatchObject({ status: 'passed' });
    expect(view.body.job.startedAt).toEqual(expect.any(String));
    expect(view.body.job.finishedAt).toEqual(expect.any(String));
    expect(streamed.map((event) => event.type)).toEqual(['job.created', 'job.queued', 'job.started', 'page.visited', 'artifact.created', 'job.passed']);
    expect(streamed.map((event) => event.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(view.body.events).toEqual(streamed.map((event) => expect.objectContaining({ index: event.index, type: event.type })));
    expect(streamed[3]!.data).toMatchObject({ url: `${demo.url}/pricing`, status: 200, allowedHosts: ['127.0.0.1'] });
    expect(view.body.findings).toEqual([]);

    expect(view.body.artifacts).toHaveLength(1);
    const artifact = view.body.artifacts[0] as Record<string, unknown>;
    expect(artifact).toMatchObject({ kind: 'screenshot', name: 'screenshot-page.png', contentType: 'image/png', downloadPath: `/api/jobs/${jobId}/artifacts/${artifact.id as string}` });
    expect(Object.keys(artifact).sort()).toEqual(['contentType', 'createdAt', 'downloadPath', 'id', 'kind', 'name', 'sha256', 'sizeBytes', 'stepIndex']);
    // No storage location in any response: neither the folder nor the key.
    expect(view.text).not.toContain(worker.artifactsDir);
    expect(view.text).not.toMatch(new RegExp(`${view.body.job.jobId}/${artifact.id as string}(?!")`));

    const download = await fetch(`${api.base}${artifact.downloadPath as string}`, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([bytes.length, createHash('sha256').update(bytes).digest('hex')]).toEqual([artifact.sizeBytes, artifact.sha256]);

    // Set B reads the same job with its own names, and its download path under /api/runs works too.
    const asRun = await callApi(api.base, 'GET', `/api/runs/${jobId}`, undefined, key);
    expect(asRun.body.run.status).toBe('passed');
    expect(asRun.body.reports).toEqual([]);
    const runPath = asRun.body.artifacts[0].downloadPath as string;
    expect(runPath).toBe(`/api/runs/${jobId}/artifacts/${artifact.id as string}`);
    expect((await fetch(`${api.base}${runPath}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('records an uncaught page error and a console error as findings, and fails', async () => {
    const { streamed, view } = await runJob(`${demo.url}/console-error`);
    expect(view.body.job.status).toBe('failed');
    const findings = view.body.findings as { kind: string; severity: string; title: string; artifactIds: string[] }[];
    expect(findings.map((finding) => [finding.kind, finding.severity])).toEqual(
      expect.arrayContaining([['page_error', 'error'], ['console_error', 'warning']]),
    );
    // Every finding points at the screenshot, and each was announced in the history.
    const screenshotId = view.body.artifacts[0].id as string;
    for (const finding of findings) expect(finding.artifactIds).toEqual([screenshotId]);
    expect(streamed.filter((event) => event.type === 'finding.recorded')).toHaveLength(findings.length);
    expect(streamed.at(-1)).toMatchObject({ type: 'job.failed', data: { findings: findings.length } });
  });

  it('reports a subresource answering 500 as an http_error and fails', async () => {
    const { view } = await runJob(`${demo.url}/broken`);
    expect(view.body.job.status).toBe('failed');
    expect(view.body.findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'http_error', severity: 'error', title: expect.stringContaining('HTTP 500') })]),
    );
  });

  it('blocks a request to a host outside the allowlist before it reaches the network, and reports it', async () => {
    const { view } = await runJob(`${demo.url}/external`);
    expect(external.hits).toEqual([]);
    expect(view.body.findings).toEqual([
      expect.objectContaining({ kind: 'request_blocked', severity: 'warning', title: 'Blocked 1 request(s) to localhost, which is not in the network allowlist' }),
    ]);
    // A warning does not fail the run.
    expect(view.body.job.status).toBe('passed');
  });

  it('lets the page reach a host the job allows', async () => {
    const { view } = await runJob(`${demo.url}/external`, ['localhost']);
    expect(external.hits.length).toBeGreaterThan(0);
    expect(view.body.findings).toEqual([]);
    expect(view.body.job.status).toBe('passed');
  });

  it('blocks a redirect to a host outside the allowlist too (redirects bypass Playwright routing)', async () => {
    const redirecting = await startRedirectingServer(`${external.origin}/landed`);
    try {
      const { view } = await runJob(redirecting.url);
      expect(external.hits).toEqual([]);
      expect(view.body.findings).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'request_blocked', title: expect.stringContaining('localhost') })]));
    } finally {
      redirecting.server.close();
    }
  });

  it('fails with navigation_failed when the target cannot be reached, still keeping what it saw', async () => {
    const closed = await startRedirectingServer('/');
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const { view } = await runJob(url);
    expect(view.body.job.status).toBe('failed');
    expect(view.body.findings).toEqual([
      expect.objectContaining({ kind: 'navigation_failed', severity: 'error', title: 'The page could not be loaded: could not connect (ECONNREFUSED)' }),
    ]);
    expect(view.body.events.find((event: { type: string }) => event.type === 'page.visited').data).toMatchObject({ url, status: null });
  });

  it('answers 404 for an artifact of another organization or an unknown id', async () => {
    const { jobId, view } = await runJob(`${demo.url}/pricing`);
    const path = view.body.artifacts[0].downloadPath as string;
    const { key: otherKey } = await createApiKey(store(), 'globex');
    const other = await callApi(api.base, 'GET', path, undefined, otherKey);
    expect([other.status, other.body.error.code]).toEqual([404, 'job.not_found'.replace('job', 'artifact')]);
    const unknown = await callApi(api.base, 'GET', `/api/jobs/${jobId}/artifacts/${randomUUID()}`, undefined, key);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'artifact.not_found']);
    const noKey = await callApi(api.base, 'GET', path, undefined, null);
    expect(noKey.status).toBe(401);
  });

  it('stores artifact files only under the artifacts folder, owner-readable only', async () => {
    await runJob(`${demo.url}/pricing`);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(worker.artifactsDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(statSync(file).mode & 0o077).toBe(0);
      expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
  });
});

describe('QA-run workflow when the browser cannot start', () => {
  const store = useTestStore('mysql');

  it('retries, then ends the job errored with the reason in its history', async () => {
    const worker = await startTestWorker(store(), {
      executablePath: '/nonexistent/chromium',
      retry: { baseDelayMs: 50, factor: 1, maxDelayMs: 50, maxRetries: 1, jitter: 0 },
    });
    const api = await startTestApi(store(), { artifacts: worker.artifacts });
    try {
      const { key, organization } = await createApiKey(store(), 'acme');
      const repositoryId = randomUUID();
      await store().getRepository(ConnectedRepository).insert({
        id: repositoryId, organizationId: organization.id, provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop',
        defaultBranch: 'main', cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'http://127.0.0.1:9', networkAllowlist: [],
        testValueSecretRefs: {}, evidenceProbeRefs: {}, revision: null,
      });
      const created = await callApi(api.base, 'POST', '/api/jobs', {
        projectId: repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl: 'http://127.0.0.1:9/', trigger: 'cli',
      }, key);
      const stream = await fetch(`${api.base}/api/jobs/${created.body.jobId as string}/events`, { headers: { authorization: `Bearer ${key}` } });
      const types = (await stream.text()).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types).toEqual(['job.created', 'job.queued', 'job.started', 'run.retrying', 'job.resumed', 'job.errored']);
      const view = await callApi(api.base, 'GET', `/api/jobs/${created.body.jobId as string}`, undefined, key);
      expect(view.body.job.status).toBe('errored');
      expect(view.body.events.at(-1).data).toEqual({ reason: 'The browser could not be started on the worker', attempt: 2 });
    } finally {
      await api.close();
      await worker.stop();
    }
  });
});
