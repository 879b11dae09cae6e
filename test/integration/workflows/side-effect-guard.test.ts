/**
 * The run-time side-effect guard (issue 13, part 3), end to end in real Chromium against the demo shop's
 * subscription page: a click whose target's accessible name or form action names a side effect that no answer
 * allowed stops the run with a `side_effect_blocked` finding, and the subscription stays active, whether the rule
 * planner or a model wrote the plan. A side effect an answer allowed runs, and a Cancel button that only closes a
 * dialog is clicked like any other.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createOpenAiPlanner } from '../../../src/planner/openai-planner.js';
import { SIDE_EFFECTS } from '../../../src/planner/side-effects.js';
import { startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

interface Finding {
  kind: string;
  severity: string;
  title: string;
  detail: string;
  stepIndex: number | null;
}

const ACCOUNT_CHANGE = SIDE_EFFECTS.find((rule) => rule.kind === 'account_change')!.question;

describe('side effects at run time: the guard on the demo shop subscription page', () => {
  let demo: DemoApp;
  let worker: TestWorker;
  let rules: TestApi;
  let model: TestApi;
  let fake: FakeChatCompletions;
  let key: string;
  let repositoryId: string;

  // Registered before the store's own afterAll, so the worker and the APIs stop while the store is still open.
  afterAll(async () => {
    await model?.close();
    await rules?.close();
    await worker?.stop();
    await fake?.close();
    await demo?.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    demo = await startDemoApp();
    fake = await startFakeChatCompletions();
    worker = await startTestWorker(store(), { stepTimeoutMs: 5_000 });
    rules = await startTestApi(store(), { artifacts: worker.artifacts });
    const planner = createOpenAiPlanner({ url: fake.url, model: 'gpt-4o-mini', apiKey: 'sk-test-side-effects', timeoutMs: 5_000, sleep: async () => undefined });
    model = await startTestApi(store(), { artifacts: worker.artifacts, planner });
  });
  beforeEach(async () => {
    demo.reset();
    fake.reset();
    const created = await createApiKey(store(), 'acme');
    key = created.key;
    repositoryId = await insertRepository(store(), created.organization.id, { baseUrl: demo.url, networkAllowlist: [] });
  });

  const create = (api: TestApi, task: string) =>
    callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: demo.url, networkAllowlist: [], trigger: 'cli' }, key);

  async function finish(api: TestApi, jobId: string): Promise<{ status: string; findings: Finding[]; types: string[] }> {
    const stream = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    const { body } = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    return { status: body.job.status as string, findings: body.findings as Finding[], types: (body.events as { type: string }[]).map((event) => event.type) };
  }

  it('rule planner: a button whose name says nothing but whose form cancels the subscription is not clicked', async () => {
    // "Confirm" names no side effect, so the policy lets the task run read-only; the page says what it does.
    const created = await create(rules, 'Open /account/subscription and click "Confirm"');
    expect([created.status, created.body.status]).toEqual([202, undefined]);

    const run = await finish(rules, created.body.jobId as string);

    expect(run.status).toBe('failed');
    expect(run.findings.filter((finding) => finding.kind === 'side_effect_blocked')).toEqual([
      expect.objectContaining({ severity: 'error', stepIndex: 1, title: 'Step 2 failed: Click the "Confirm" button', detail: expect.stringContaining("its form's action") }),
    ]);
    expect(run.findings.find((finding) => finding.kind === 'side_effect_blocked')?.detail).toMatch(/\/account\/subscription\/cancel names a real side effect \(account change\) that no answer allowed/);
    expect(demo.subscription()).toEqual({ plan: 'Pro', state: 'active', cancellations: 0 });
    expect(run.types).not.toContain('check.compiled');
  });

  it('rule planner: the side effect an answer allowed is done', async () => {
    const asked = await create(rules, 'Open /account/subscription and click "Cancel subscription"');
    expect(asked.body).toMatchObject({ status: 'review_required', resolution: { questions: [ACCOUNT_CHANGE] } });
    expect(demo.subscription().cancellations).toBe(0);

    const answered = await callApi(rules.base, 'POST', `/api/jobs/${asked.body.jobId as string}/clarifications`, { answers: ['Yes, it is a test workspace'] }, key);
    const run = await finish(rules, answered.body.jobId as string);

    expect([run.status, run.findings.filter((finding) => finding.severity === 'error')]).toEqual(['passed', []]);
    expect(demo.subscription()).toEqual({ plan: 'Pro', state: 'cancelled', cancellations: 1 });
  });

  it('rule planner: a Cancel button that only closes a dialog is clicked as usual', async () => {
    const created = await create(rules, 'Go to /account/subscription, click "Compare plans", click "Cancel" and check that the page says "Plan: Pro (active)"');
    expect([created.status, created.body.status]).toEqual([202, undefined]);

    const run = await finish(rules, created.body.jobId as string);

    expect([run.status, run.findings.filter((finding) => finding.severity === 'error')]).toEqual(['passed', []]);
    expect(demo.subscription().cancellations).toBe(0);
  });

  it('model planner: a click the model named harmlessly is stopped by what the page calls it', async () => {
    // "Cancel sub" names no side effect to the floor, which reads the plan's words; on the page it resolves to the
    // span that holds the "Cancel subscription" button's label, and the guard reads the button it belongs to.
    fake.script({
      content: {
        kind: 'plan',
        plan: {
          steps: [
            { action: 'navigate', description: 'Open the subscription page', url: '/account/subscription' },
            { action: 'click', description: 'Press the first button', target: { by: 'text', role: null, name: 'Cancel sub', exact: false } },
          ],
          successCriteria: [],
        },
        questions: [],
        assumptions: [],
      },
    });
    const created = await create(model, 'Open the subscription page and press the first button');
    expect([created.status, created.body.status]).toEqual([202, undefined]);

    const run = await finish(model, created.body.jobId as string);

    expect(run.status).toBe('failed');
    expect(run.findings.filter((finding) => finding.kind === 'side_effect_blocked')).toEqual([
      expect.objectContaining({ severity: 'error', stepIndex: 1, detail: expect.stringContaining('its name "Cancel subscription" names a real side effect (account change)') }),
    ]);
    expect(demo.subscription()).toEqual({ plan: 'Pro', state: 'active', cancellations: 0 });
  });

  it('model planner: a plan whose target names nothing is stopped at run time by the form it submits', async () => {
    fake.script({
      content: {
        kind: 'plan',
        plan: {
          steps: [
            { action: 'navigate', description: 'Open the subscription page', url: '/account/subscription' },
            { action: 'click', description: 'Confirm', target: { by: 'role', role: 'button', name: 'Confirm', exact: true } },
          ],
          successCriteria: [],
        },
        questions: [],
        assumptions: [],
      },
    });
    const created = await create(model, 'Open the subscription page and press Confirm');
    expect([created.status, created.body.status]).toEqual([202, undefined]);

    const run = await finish(model, created.body.jobId as string);

    expect(run.status).toBe('failed');
    expect(run.findings.filter((finding) => finding.kind === 'side_effect_blocked')).toEqual([
      expect.objectContaining({ severity: 'error', stepIndex: 1, detail: expect.stringContaining('/account/subscription/cancel names a real side effect (account change)') }),
    ]);
    expect(demo.subscription()).toEqual({ plan: 'Pro', state: 'active', cancellations: 0 });
  });
});
