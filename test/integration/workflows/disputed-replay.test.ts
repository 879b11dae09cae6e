import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

const TASK = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10 and check that the total shows $90';
const REASON = 'SAVE10 is 20% off this week: the total is $80 on purpose';

interface FindingBody {
  kind: string;
  severity: string;
  title: string;
  detail: string;
  stepIndex: number | null;
  disputedBy: string | null;
}

/**
 * Issue 12, "not a bug": a check compiled on the demo shop is replayed on a deploy where the coupon takes 20 % off,
 * so its last step fails; the failure is disputed; the next replay there passes with the failure as a warning that
 * says who disputed it and why; a replay on a deploy where the demo user cannot sign in still fails.
 */
describe('a disputed failure of a compiled check (real browser, demo shop)', () => {
  let shop: DemoApp;
  let twentyOff: DemoApp;
  let otherAccount: DemoApp;
  let worker: TestWorker;
  let api: TestApi;

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await Promise.all([shop, twentyOff, otherAccount].map((app) => app?.close()));
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    [shop, twentyOff, otherAccount] = await Promise.all([
      startDemoApp(),
      startDemoApp({ coupons: { SAVE10: 20 } }),
      startDemoApp({ account: { email: 'someone-else@example.test', password: 'another-Pa55word!' } }),
    ]);
    worker = await startTestWorker(store(), { secrets: { DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password } });
    api = await startTestApi(store(), { artifacts: worker.artifacts });
  });

  /** Reads a job's event stream to its end, then the job. */
  async function finish(collection: 'jobs' | 'runs', id: string, key: string) {
    const stream = await fetch(`${api.base}/api/${collection}/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    return callApi(api.base, 'GET', `/api/${collection}/${id}`, undefined, key);
  }

  it('passes the next replay with the same failure as a warning that says who and why, and still fails a different failure', async () => {
    const { key, principal, organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { baseUrl: shop.url, testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD' } });
    const replay = async (baseUrl: string) => {
      const created = await callApi(api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl, trigger: 'schedule' }, key);
      expect(created.status).toBe(202);
      const view = await finish('runs', created.body.runId as string, key);
      const errors = (view.body.reports as FindingBody[]).filter((finding) => finding.severity === 'error');
      return { runId: created.body.runId as string, view, errors, types: (view.body.events as { type: string; data: Record<string, unknown> }[]) };
    };

    // The natural-language run passes on the shop and compiles the check.
    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: TASK, baseUrl: shop.url, trigger: 'cli' }, key);
    expect(created.status).toBe(202);
    const compiled = await finish('jobs', created.body.jobId as string, key);
    expect(compiled.body.job.status).toBe('passed');
    const checkId = compiled.body.job.testId as string;

    // On the 20 %-off deploy the total is $80: the last step fails.
    const first = await replay(twentyOff.url);
    expect(first.view.body.run.status).toBe('failed');
    expect(first.errors).toEqual([expect.objectContaining({ kind: 'assertion_failed', stepIndex: 8, title: 'Step 9 failed: Expect the page to show "$90"', disputedBy: null })]);
    const failedDetail = first.errors[0]!.detail;

    // Someone says it is no bug.
    const disputed = await callApi(api.base, 'POST', `/api/runs/${first.runId}/findings/dispute`, { reason: REASON }, key);
    expect(disputed.status).toBe(200);
    const by = `api_key:${(principal.actor as { apiKeyId: string }).apiKeyId}`;
    expect(disputed.body.reports).toEqual([expect.objectContaining({ kind: 'assertion_failed', disputedBy: by, disputeReason: REASON })]);
    const shown = await callApi(api.base, 'GET', `/api/jobs/${first.runId}`, undefined, key);
    expect((shown.body.findings as FindingBody[]).find((finding) => finding.severity === 'error')).toMatchObject({ disputedBy: by, disputeReason: REASON, disputedAt: expect.any(String) });

    // The same failure again: recorded as a warning that says who and why, and the replay passes.
    const second = await replay(twentyOff.url);
    expect([second.view.body.run.status, second.errors]).toEqual(['passed', []]);
    const warning = (second.view.body.reports as FindingBody[]).find((finding) => finding.kind === 'assertion_failed');
    expect(warning).toMatchObject({ severity: 'warning', stepIndex: 8, title: 'Step 9 failed: Expect the page to show "$90"', disputedBy: null });
    expect(warning!.detail).toBe(`Disputed by ${by}: ${REASON}\n\n${failedDetail}`);
    expect(second.types.find((event) => event.type === 'step.failed')?.data).toMatchObject({ index: 8, kind: 'assertion_failed', disputed: true });
    expect(second.types.at(-1)?.type).toBe('job.passed');

    // A different failure (the demo user cannot sign in there, so the lamp is never on the page) still fails.
    const third = await replay(otherAccount.url);
    expect(third.view.body.run.status).toBe('failed');
    expect(third.errors).toEqual([expect.objectContaining({ kind: 'step_unresolvable', stepIndex: 4, title: 'Step 5 failed: Click the button that adds "Desk Lamp" to the cart' })]);
    expect(third.errors[0]!.detail).not.toContain('Disputed by');
  });
});
