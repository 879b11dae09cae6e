import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { readZip } from '../../../src/browser/zip.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
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

/**
 * On MySQL only, as the other browser workflows of the suite: what a run adds over the store's own tests is the
 * browser's side, which the dialect does not change. The run's writes (the recorder's fenced commits, event indexes,
 * artifacts, the compiled check) are tested on both dialects in run-recorder.test.ts and api/jobs.test.ts, and a whole
 * run on SQLite through the real `qa start` in test/e2e/cli-client.test.ts.
 */
describe('QA-run workflow, first cut', () => {
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
  const store = useTestStore('mysql');

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
    repositoryId = await insertRepository(store(), organization.id, { baseUrl: demo.url });
  });

  /**
   * Creates a runnable job (by default "Go to <path>" on the demo shop) and reads its event stream to the end (the
   * stream ends when the job does).
   */
  async function runJob(path: string, { networkAllowlist = [] as string[], baseUrl = demo.url, task = `Go to ${path}` } = {}) {
    const created = await callApi(api.base, 'POST', '/api/jobs', {
      projectId: repositoryId, naturalLanguageTask: task, baseUrl, networkAllowlist, trigger: 'cli',
    }, key);
    expect(created.status).toBe(202);
    const jobId = created.body.jobId as string;
    const stream = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    const lines = (await stream.text()).trim().split('\n').map((line) => JSON.parse(line) as { index: number; type: string; data: Record<string, unknown> });
    const view = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    expect(TERMINAL.has(view.body.job.status as string)).toBe(true);
    return { jobId, streamed: lines, view };
  }

  it('runs the plan step by step, keeps a screenshot per step, passes and compiles its check; the history is complete', async () => {
    const { jobId, streamed, view } = await runJob('/pricing', { task: 'Check that the pricing page lists three plans' });
    expect(view.body.job).toMatchObject({ status: 'passed' });
    expect(view.body.job.startedAt).toEqual(expect.any(String));
    expect(view.body.job.finishedAt).toEqual(expect.any(String));
    expect(streamed.map((event) => event.type)).toEqual([
      'job.created', 'job.queued', 'job.started',
      'step.started', 'artifact.created', 'step.passed',
      'step.started', 'artifact.created', 'step.passed',
      'artifact.created', // the trace
      'check.compiled', 'job.passed',
    ]);
    expect(streamed.map((event) => event.index)).toEqual(streamed.map((_event, index) => index));
    expect(view.body.events).toEqual(streamed.map((event) => expect.objectContaining({ index: event.index, type: event.type })));
    expect(streamed[3]!.data).toEqual({ index: 0, action: 'navigate', description: 'Go to /pricing', attempt: 1 });
    expect(streamed[8]!.data).toMatchObject({ index: 1, locator: { strategy: 'role', role: 'list', name: 'plans', exact: false } });
    expect(streamed[9]!.data).toMatchObject({ kind: 'trace', name: 'trace.zip' });
    expect(streamed[10]!.data).toEqual({ checkId: view.body.job.testId, version: 1, steps: 2 });
    expect(view.body.findings).toEqual([]);

    expect((view.body.artifacts as { kind: string }[]).map((artifact) => artifact.kind)).toEqual(['screenshot', 'screenshot', 'trace']);
    const artifact = view.body.artifacts[0] as Record<string, unknown>;
    expect(artifact).toMatchObject({ kind: 'screenshot', name: 'step-1.png', contentType: 'image/png', stepIndex: 0, downloadPath: `/api/jobs/${jobId}/artifacts/${artifact.id as string}` });
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

  it('replays the compiled check with its stored locators and no planner', async () => {
    const first = await runJob('/pricing', { task: 'Check that the pricing page lists three plans' });
    const checkId = first.view.body.job.testId as string;
    const replay = await callApi(api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl: demo.url, trigger: 'schedule' }, key);
    expect(replay.status).toBe(202);
    const stream = await fetch(`${api.base}/api/runs/${replay.body.runId as string}/events`, { headers: { authorization: `Bearer ${key}` } });
    const types = (await stream.text()).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);
    // A passing replay keeps no screenshot and no trace (qa-run/evidence.ts).
    expect(types).toEqual(['job.created', 'job.queued', 'job.started', 'step.started', 'step.passed', 'step.started', 'step.passed', 'job.passed']);
    const view = await callApi(api.base, 'GET', `/api/runs/${replay.body.runId as string}`, undefined, key);
    expect(view.body.run).toMatchObject({ status: 'passed', scenarioId: checkId, naturalLanguageTask: null });
    expect(view.body.artifacts).toEqual([]);

    // The check: listed, with its version, the job that produced it and the replay.
    const listed = await callApi(api.base, 'GET', `/api/checks?projectId=${repositoryId}`, undefined, key);
    expect(listed.body.checks).toEqual([expect.objectContaining({ testId: checkId, status: 'active', version: 1, projectId: repositoryId })]);
    const check = await callApi(api.base, 'GET', `/api/checks/${checkId}`, undefined, key);
    expect(check.body.versions).toEqual([
      expect.objectContaining({
        version: 1,
        state: 'compiled',
        jobId: first.jobId,
        steps: [
          { step: expect.objectContaining({ action: 'navigate', url: '/pricing' }) },
          {
            step: expect.objectContaining({ action: 'expectCount', count: 3 }),
            locator: { strategy: 'role', role: 'list', name: 'plans', exact: false },
            // What the list looked like and the other ways that found it, for a replay that must heal.
            healing: { element: { tag: 'ul', role: 'list', name: 'Plans', text: expect.stringContaining('Starter') }, alternatives: [{ strategy: 'role', role: 'list', value: 'Plans' }, { strategy: 'css', value: 'main > ul' }] },
          },
        ],
      }),
    ]);
    expect(check.body.jobs).toEqual([
      expect.objectContaining({ jobId: first.jobId, role: 'produced', status: 'passed' }),
      expect.objectContaining({ jobId: replay.body.runId, role: 'replayed', status: 'passed', trigger: 'schedule' }),
    ]);
    const asScenario = await callApi(api.base, 'GET', `/api/scenarios/${checkId}`, undefined, key);
    expect(asScenario.body.check.scenarioId).toBe(checkId);
    expect(asScenario.body.runs).toHaveLength(2);

    const source = await fetch(`${api.base}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${key}` } });
    expect(source.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await source.text();
    expect(text).toContain("from '@playwright/test'");
    expect(text).toContain('/pricing');

    const { key: otherKey } = await createApiKey(store(), 'globex');
    expect((await callApi(api.base, 'GET', `/api/checks/${checkId}`, undefined, otherKey)).status).toBe(404);
    expect((await callApi(api.base, 'GET', `/api/checks/${checkId}/source`, undefined, otherKey)).status).toBe(404);
    expect((await callApi(api.base, 'GET', '/api/checks', undefined, otherKey)).body.checks).toEqual([]);
  });

  it('keeps what a person needs when a replay fails: the failed step\'s screenshot, the page\'s accessibility snapshot and the trace', async () => {
    const first = await runJob('/pricing', { task: 'Check that the pricing page lists three plans' });
    const checkId = first.view.body.job.testId as string;
    // The same check against a deployment whose pricing page lists one plan.
    const changed = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Pricing</title><main><h1>Pricing</h1><ul aria-label="plans"><li>Solo</li></ul></main></html>'));
    await new Promise<void>((resolve) => changed.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(changed.address() as AddressInfo).port}`;
      const replay = await callApi(api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl, trigger: 'schedule' }, key);
      expect(replay.status).toBe(202);
      const stream = await fetch(`${api.base}/api/runs/${replay.body.runId as string}/events`, { headers: { authorization: `Bearer ${key}` } });
      await stream.text();
      const view = await callApi(api.base, 'GET', `/api/runs/${replay.body.runId as string}`, undefined, key);
      expect(view.body.run.status).toBe('failed');
      const kept = (view.body.artifacts as { kind: string; name: string }[]).map((artifact) => `${artifact.kind}:${artifact.name}`).sort();
      expect(kept).toEqual(['accessibility_snapshot:step-2-accessibility.yaml', 'screenshot:step-2.png', 'trace:trace.zip']);
      // A replay's trace holds its actions and the network, not DOM snapshots or the screencast (the screenshot and
      // the accessibility snapshot show the page).
      const traceId = (view.body.artifacts as { id: string; kind: string }[]).find((artifact) => artifact.kind === 'trace')!.id;
      const zip = await fetch(`${api.base}/api/runs/${replay.body.runId as string}/artifacts/${traceId}`, { headers: { authorization: `Bearer ${key}` } });
      const entries = await readZip(Buffer.from(await zip.arrayBuffer()));
      const events = entries.find((entry) => entry.name === 'trace.trace')!.data.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; method?: string });
      expect(events.filter((event) => event.type === 'before').map((event) => event.method)).toEqual(expect.arrayContaining(['goto']));
      expect(events.filter((event) => event.type === 'frame-snapshot')).toEqual([]);
      expect(events.filter((event) => event.type === 'screencast-frame')).toEqual([]);
      expect(entries.some((entry) => entry.name === 'trace.network')).toBe(true);
    } finally {
      changed.close();
    }
  });

  it('fails at a step whose target is not on the page, with a finding and the accessibility snapshot', async () => {
    const { view } = await runJob('/pricing', { task: 'Go to /pricing and click the Teleport button' });
    expect(view.body.job.status).toBe('failed');
    const [finding] = view.body.findings as { kind: string; title: string; detail: string; stepIndex: number; artifactIds: string[] }[];
    expect(finding).toMatchObject({ kind: 'step_unresolvable', stepIndex: 1, title: 'Step 2 failed: Click the "Teleport" button', detail: expect.stringContaining('Nothing on the page matches "Teleport"') });
    const linked = (view.body.artifacts as { id: string; kind: string }[]).filter((artifact) => finding!.artifactIds.includes(artifact.id));
    expect(linked.map((artifact) => artifact.kind).sort()).toEqual(['accessibility_snapshot', 'screenshot']);
    const snapshot = await fetch(`${api.base}/api/jobs/${view.body.job.jobId as string}/artifacts/${linked.find((artifact) => artifact.kind === 'accessibility_snapshot')!.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(await snapshot.text()).toContain('heading "Starter"');
  });

  it('records an uncaught page error and a console error as findings, and fails', async () => {
    const { streamed, view } = await runJob('/console-error');
    expect(view.body.job.status).toBe('failed');
    const findings = view.body.findings as { kind: string; severity: string; title: string; artifactIds: string[] }[];
    expect(findings.map((finding) => [finding.kind, finding.severity])).toEqual(
      expect.arrayContaining([['page_error', 'error'], ['console_error', 'warning']]),
    );
    expect(streamed.filter((event) => event.type === 'finding.recorded')).toHaveLength(findings.length);
    expect(streamed.at(-1)).toMatchObject({ type: 'job.failed', data: { findings: findings.length } });
  });

  it('reports serious accessibility violations as warnings, once per page', async () => {
    const { view } = await runJob('/a11y');
    expect(view.body.job.status).toBe('passed');
    const titles = (view.body.findings as { kind: string; severity: string; title: string }[]).map((finding) => [finding.kind, finding.severity, finding.title]);
    expect(titles).toEqual(expect.arrayContaining([
      ['accessibility', 'warning', expect.stringMatching(/^Accessibility \(critical\): Images must have alternative text on \/a11y/)],
    ]));
    expect(titles.every(([kind]) => kind === 'accessibility')).toBe(true);
  });

  it('reports a page\'s accessibility violations in every replay, the ones after the first included (the worker remembers the unchanged page\'s audit)', async () => {
    const first = await runJob('/a11y');
    const checkId = first.view.body.job.testId as string;
    const titlesOf = (view: { body: Record<string, unknown> }) =>
      (view.body.findings as { kind: string; severity: string; title: string; stepIndex: number }[]).map((finding) => [finding.kind, finding.severity, finding.stepIndex, finding.title]);
    const expected = titlesOf(first.view);
    expect(expected).toEqual(expect.arrayContaining([['accessibility', 'warning', 0, expect.stringMatching(/^Accessibility \(critical\): Images must have alternative text on \/a11y/)]]));
    for (let replay = 0; replay < 2; replay++) {
      const started = await callApi(api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl: demo.url, trigger: 'schedule' }, key);
      expect(started.status).toBe(202);
      await (await fetch(`${api.base}/api/runs/${started.body.runId as string}/events`, { headers: { authorization: `Bearer ${key}` } })).text();
      const view = await callApi(api.base, 'GET', `/api/jobs/${started.body.runId as string}`, undefined, key);
      expect({ replay, status: view.body.job.status, findings: titlesOf(view) }).toEqual({ replay, status: 'passed', findings: expected });
    }
  });

  it('reports a subresource answering 500 as an http_error and fails', async () => {
    const { view } = await runJob('/broken');
    expect(view.body.job.status).toBe('failed');
    expect(view.body.findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'http_error', severity: 'error', title: expect.stringContaining('HTTP 500') })]),
    );
  });

  it('blocks a request to a host outside the allowlist before it reaches the network, and reports it', async () => {
    const { view } = await runJob('/external');
    expect(external.hits).toEqual([]);
    expect(view.body.findings).toEqual([
      expect.objectContaining({ kind: 'request_blocked', severity: 'warning', title: `Blocked 1 request(s) to ${new URL(external.origin).host}, which is not in the network allowlist` }),
    ]);
    // A warning does not fail the run.
    expect(view.body.job.status).toBe('passed');
  });

  it('lets the page reach a host the job allows', async () => {
    const { view } = await runJob('/external', { networkAllowlist: [new URL(external.origin).host] });
    expect(external.hits.length).toBeGreaterThan(0);
    expect(view.body.findings).toEqual([]);
    expect(view.body.job.status).toBe('passed');
  });

  it('blocks a redirect to a host outside the allowlist too (redirects bypass Playwright routing)', async () => {
    const redirecting = await startRedirectingServer(`${external.origin}/landed`);
    try {
      const { view } = await runJob('/', { baseUrl: redirecting.url, task: 'Open the home page' });
      expect(external.hits).toEqual([]);
      expect(view.body.findings).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'request_blocked', title: expect.stringContaining('localhost') })]));
    } finally {
      redirecting.server.close();
    }
  });

  it('fails a step redirected outside the allowed origins with navigation_blocked, and compiles no check from it', async () => {
    // The main page redirects to another service (`localhost:<port>`): the proxy refuses it, and the page then shows
    // the proxy's refusal under that URL; the step used to pass, and the job, and its check was compiled.
    const redirecting = await startRedirectingServer(`${external.origin}/landed`);
    try {
      const { streamed, view } = await runJob('/redir', { baseUrl: redirecting.url });
      expect(external.hits).toEqual([]);
      expect(view.body.job.status).toBe('failed');
      expect(view.body.findings).toEqual(expect.arrayContaining([
        expect.objectContaining({
          kind: 'navigation_blocked',
          severity: 'error',
          stepIndex: 0,
          title: 'Step 1 failed: Go to /redir',
          detail: expect.stringContaining(`The navigation ended on ${new URL(external.origin).host}, which the run may not reach`),
        }),
      ]));
      const types = streamed.map((event) => event.type);
      expect(types).toContain('step.failed');
      expect(types).not.toContain('check.compiled');
      expect(types.at(-1)).toBe('job.failed');
      const check = await callApi(api.base, 'GET', `/api/checks/${view.body.job.testId as string}`, undefined, key);
      expect(check.body.versions).toEqual([]);

      // The check has no steps yet, so a run of it is the first cut's visit of the target: refused the same way.
      const visit = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, testId: view.body.job.testId, baseUrl: redirecting.url, trigger: 'cli' }, key);
      expect(visit.status).toBe(202);
      await (await fetch(`${api.base}/api/jobs/${visit.body.jobId as string}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) })).text();
      const visited = await callApi(api.base, 'GET', `/api/jobs/${visit.body.jobId as string}`, undefined, key);
      expect((visited.body.events as { type: string }[]).map((event) => event.type)).toContain('page.visited');
      expect(visited.body.job.status).toBe('failed');
      expect(visited.body.findings).toEqual(expect.arrayContaining([
        expect.objectContaining({ kind: 'navigation_blocked', severity: 'error', stepIndex: null, title: `Opening ${redirecting.url} led outside the allowed origins` }),
      ]));
      expect(external.hits).toEqual([]);
    } finally {
      redirecting.server.close();
    }
  });

  it('fails with navigation_failed when the target cannot be reached, still keeping what it saw', async () => {
    const closed = await startRedirectingServer('/');
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const { view } = await runJob('/', { baseUrl: url, task: 'Open the home page' });
    expect(view.body.job.status).toBe('failed');
    expect(view.body.findings).toEqual([
      expect.objectContaining({ kind: 'navigation_failed', severity: 'error', title: 'Step 1 failed: Go to /', detail: expect.stringContaining(`Could not open ${url}`) }),
      expect.objectContaining({ kind: 'navigation_failed', severity: 'error', title: 'The page could not be loaded: could not connect (ECONNREFUSED)' }),
    ]);
  });

  it('answers 404 for an artifact of another organization or an unknown id', async () => {
    const { jobId, view } = await runJob('/pricing');
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
    await runJob('/pricing');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(worker.artifactsDir);
    const pngs = files.filter((file) => readFileSync(file).subarray(1, 4).toString() === 'PNG');
    expect(pngs.length).toBeGreaterThan(0);
    for (const file of files) expect(statSync(file).mode & 0o077).toBe(0);
  });
});

describe("QA-run workflow next to the service's own API", () => {
  const store = useTestStore('mysql');

  it("cannot reach the service's own address, though the job's allowlist names it", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-own-address-'));
    const api = await startTestApi(store(), { artifacts: createFileArtifactStorage(artifactsDir) });
    const own = new URL(api.base);
    // As the composition root does: the service's HOST:PORT.
    const worker = await startTestWorker(store(), { artifactsDir, forbiddenOrigins: [own.host] });
    const redirecting = await startRedirectingServer(`${api.base}/api/jobs`);
    try {
      const { key, organization } = await createApiKey(store(), 'acme');
      const repositoryId = await insertRepository(store(), organization.id, { baseUrl: redirecting.url });
      const created = await callApi(api.base, 'POST', '/api/jobs', {
        projectId: repositoryId, naturalLanguageTask: 'Open the home page', baseUrl: redirecting.url, networkAllowlist: [own.host, `localhost:${own.port}`], trigger: 'cli',
      }, key);
      expect(created.status).toBe(202);
      const stream = await fetch(`${api.base}/api/jobs/${created.body.jobId as string}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
      await stream.text();
      const view = await callApi(api.base, 'GET', `/api/jobs/${created.body.jobId as string}`, undefined, key);
      expect(view.body.job.status).toBe('failed');
      const findings = view.body.findings as { kind: string; title: string; detail: string }[];
      expect(findings).toEqual(expect.arrayContaining([
        expect.objectContaining({ kind: 'navigation_blocked', detail: expect.stringContaining(`The navigation ended on ${own.host}, which the run may not reach`) }),
        expect.objectContaining({ kind: 'request_blocked', title: `Blocked 1 request(s) to ${own.host}, which is not in the network allowlist` }),
      ]));
      // Reached, the API would have answered the key-less request 401.
      expect(findings.filter((finding) => finding.kind === 'http_error')).toEqual([]);
    } finally {
      redirecting.server.close();
      await api.close();
      await worker.stop();
      rmSync(artifactsDir, { recursive: true, force: true });
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
      const repositoryId = await insertRepository(store(), organization.id, { baseUrl: 'http://127.0.0.1:9' });
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
