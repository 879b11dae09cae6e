/**
 * BROWSER_WS_ENDPOINT: a worker that uses a running Playwright browser server instead of launching Chromium. The
 * workers here are given a browser path that does not exist, so a run that passes was run by the remote browser.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type BrowserServer } from 'playwright';
import { CHROMIUM_ARGS } from '../../../src/browser/browser-pool.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
import { freePort } from '../../support/qa-cli.js';
import { startTestWorker } from '../../support/qa-worker.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';

const NO_LOCAL_BROWSER = '/nonexistent/chromium';

describe('runs on a remote browser (BROWSER_WS_ENDPOINT)', () => {
  let demo: DemoApp;
  let server: BrowserServer;
  let api: TestApi;

  // Declared before the store, so it runs before the store closes.
  afterAll(async () => {
    await api?.close();
    await server?.close();
    await demo?.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    demo = await startDemoApp();
    server = await chromium.launchServer({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, args: CHROMIUM_ARGS });
    api = await startTestApi(store());
  });

  async function run(task: string): Promise<{ status: string; events: { type: string; data: Record<string, unknown> }[] }> {
    const { key, organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { baseUrl: demo.url });
    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: demo.url, trigger: 'cli' }, key);
    expect(created.status).toBe(202);
    const jobId = created.body.jobId as string;
    const stream = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    await stream.text();
    const view = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    return { status: view.body.job.status as string, events: view.body.events as { type: string; data: Record<string, unknown> }[] };
  }

  it('runs the job in the remote browser, with no local browser to launch', async () => {
    // A step may wait longer than the test workers' 3 s for what is there: every call goes over the browser server's
    // socket, and CI's machine may be shared (this test once failed there under load with no reason to show).
    const worker = await startTestWorker(store(), { wsEndpoint: server.wsEndpoint(), executablePath: NO_LOCAL_BROWSER, stepTimeoutMs: 10_000 });
    try {
      const { status, events } = await run('Check that the pricing page lists three plans');
      // The failures ride along, so a run that did not pass says why.
      expect({ status, failures: events.filter((event) => /\.(failed|errored)$/.test(event.type)) }).toEqual({ status: 'passed', failures: [] });
      expect(events.filter((event) => event.type === 'step.passed')).toHaveLength(2);
      expect(events.filter((event) => event.type === 'artifact.created').map((event) => event.data.kind)).toEqual(['screenshot', 'screenshot', 'trace']);
    } finally {
      await worker.stop();
    }
  });

  it('errors the job with browser.unavailable when the endpoint cannot be reached, and launches nothing', async () => {
    const nobody = await freePort();
    const worker = await startTestWorker(store(), {
      wsEndpoint: `ws://127.0.0.1:${nobody}/playwright`,
      // A local browser that works: the remote setting must keep the worker from falling back to it.
      executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH,
      retry: { baseDelayMs: 10, factor: 1, maxDelayMs: 10, maxRetries: 0, jitter: 0 },
    });
    try {
      const { status, events } = await run('Check that the pricing page lists three plans');
      expect(status).toBe('errored');
      expect(events.at(-1)).toMatchObject({
        type: 'job.errored',
        data: { reason: `The remote browser at ws://127.0.0.1:${nobody} (BROWSER_WS_ENDPOINT) could not be reached` },
      });
      expect(events.some((event) => event.type === 'step.started')).toBe(false);
    } finally {
      await worker.stop();
    }
  });
});
