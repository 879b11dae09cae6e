/**
 * One worker runs several jobs at once (WORKER_CONCURRENCY), each in a browser context of its own. Nothing here is
 * timed: the demo shop's /barrier answers a request only once a second one waits there too, so two jobs pass it only
 * if they overlap; its arrivals say whether each request carried a session cookie.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { DEFAULT_ACCOUNT, MAX_BARRIER_MS, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker } from '../../support/qa-worker.js';

const SECRETS = { DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password };
/** Long enough for a busy machine: a barrier is passed as soon as both arrive, so this is never waited out. */
const STEP_TIMEOUT_MS = MAX_BARRIER_MS + 5_000;
const TEST_TIMEOUT_MS = 3 * STEP_TIMEOUT_MS;

/** A signed-in job and a signed-out one at the same barrier, each checking what the barrier says about it. */
const tasks = (barrier: string) => ({
  signedIn: `Sign in as the demo user, go to ${barrier}, and check that the page shows "You are signed in"`,
  signedOut: `Go to ${barrier} and check that the page shows "You are not signed in"`,
});

interface Finished {
  status: string;
  events: { type: string; at: string }[];
  findings: { title: string }[];
}

// MySQL only: what differs here is the browser, not the store. The queue's claims under concurrency run on both
// dialects in test/integration/queue/worker.test.ts, the run's fenced writes in workflows/run-recorder.test.ts.
describe('one worker, several jobs at once', () => {
  let demo: DemoApp;
  let api: TestApi;
  let key: string;
  let repositoryId: string;

  // Declared before the store, so it runs before the store closes.
  afterAll(async () => {
    await api?.close();
    await demo?.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    demo = await startDemoApp();
    api = await startTestApi(store());
  });

  beforeEach(async () => {
    demo.reset();
    const { key: created, organization } = await createApiKey(store(), 'acme');
    key = created;
    repositoryId = await insertRepository(store(), organization.id, {
      baseUrl: demo.url,
      testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD' },
    });
  });

  async function create(task: string): Promise<string> {
    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: demo.url, trigger: 'cli' }, key);
    // Runnable at once (a review would answer status review_required): sign-in and a page visit are read-only.
    expect([created.status, created.body.status]).toEqual([202, undefined]);
    return created.body.jobId as string;
  }

  /** Reads the job's event stream to its end (the job's end), then the job. */
  async function finished(jobId: string): Promise<Finished> {
    const stream = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
    await stream.text();
    const view = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    return { status: view.body.job.status as string, events: view.body.events as Finished['events'], findings: view.body.findings as Finished['findings'] };
  }

  it('with concurrency 2 runs two jobs at the same time, each in its own browser context', async () => {
    const worker = await startTestWorker(store(), { concurrency: 2, secrets: SECRETS, stepTimeoutMs: STEP_TIMEOUT_MS, navigationTimeoutMs: STEP_TIMEOUT_MS });
    try {
      const barrier = `/barrier/pair?timeoutMs=${MAX_BARRIER_MS}`;
      const { signedIn, signedOut } = tasks(barrier);
      const jobs = [await create(signedIn), await create(signedOut)];
      const [a, b] = await Promise.all(jobs.map(finished));
      // Each passed the barrier, which answers only requests that wait there together: the two runs overlapped.
      expect([a!.status, a!.findings, b!.status, b!.findings]).toEqual(['passed', [], 'passed', []]);
      // At that moment one browser was signed in and the other carried no cookie of it: separate contexts.
      const arrivals = demo.barrierArrivals('pair').map(({ signedIn: cookie, outcome }) => `${cookie ? 'signed in' : 'signed out'}: ${outcome}`);
      expect(arrivals.sort()).toEqual(['signed in: met', 'signed out: met']);
    } finally {
      await worker.stop();
    }
  }, TEST_TIMEOUT_MS);

  it('with concurrency 1 runs them one after the other: each waits at the barrier alone and fails', async () => {
    const worker = await startTestWorker(store(), { concurrency: 1, secrets: SECRETS, stepTimeoutMs: STEP_TIMEOUT_MS, navigationTimeoutMs: STEP_TIMEOUT_MS });
    try {
      // A short wait: here the barrier is meant to give up.
      const { signedIn, signedOut } = tasks('/barrier/alone?timeoutMs=1000');
      const jobs = [await create(signedIn), await create(signedOut)];
      const results = await Promise.all(jobs.map(finished));
      expect(results.map((result) => result.status)).toEqual(['failed', 'failed']);
      // The barrier's 504 (each page still says who it was, so the text checks hold).
      for (const result of results) expect(result.findings.map((finding) => finding.title)).toEqual([expect.stringContaining('HTTP 504')]);
      expect(demo.barrierArrivals('alone').map((arrival) => arrival.outcome)).toEqual(['timed_out', 'timed_out']);
      // And their runs did not overlap: one job's history ends before the other's run starts.
      const span = (result: Finished) => {
        const at = (type: string) => Date.parse(result.events.find((event) => event.type === type)!.at);
        return { started: at('job.started'), ended: at('job.failed') };
      };
      const [first, second] = results.map(span).sort((x, y) => x.started - y.started);
      expect(first!.ended).toBeLessThanOrEqual(second!.started);
    } finally {
      await worker.stop();
    }
  }, TEST_TIMEOUT_MS);
});
