/**
 * PLANNER=openai through the real HTTP API: a job created from a task is planned by a model behind a local fake
 * chat-completions server. The job's history shows each request's tokens and time; the model is shown names, never
 * the secret values of the repository's test values or its probe; a model that answers badly twice leaves an
 * errored job and a 502.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { createOpenAiPlanner } from '../../../src/planner/openai-planner.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { shopRepositoryBody } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';

const API_KEY = 'sk-test-9f8e7d6c5b4a3210';
const MODEL = 'gpt-4o-mini';
const SECRETS = {
  DEMO_EMAIL: 'demo.user@shop.example',
  DEMO_PASSWORD: 'correct-horse-battery-staple',
  PROBE_URL: 'https://probe.shop.example/orders?token-in-url=s3cr3t-url',
  PROBE_TOKEN: 's3cr3t-probe-token',
};
const TASK = 'Sign in as the demo user and check that the Dashboard heading is visible';

const textbox = (name: string) => ({ by: 'label', role: null, name, exact: false });
const SIGN_IN_ANSWER = {
  kind: 'plan',
  plan: {
    steps: [
      { action: 'navigate', description: 'Go to /login', url: '/login' },
      { action: 'fill', description: 'Fill Email with the demo user', target: textbox('Email'), value: { kind: 'testValue', name: 'demoEmail' } },
      { action: 'fill', description: 'Fill Password', target: textbox('Password'), value: { kind: 'testValue', name: 'demoPassword' } },
      { action: 'click', description: 'Click Sign in', target: { by: 'role', role: 'button', name: 'Sign in', exact: false } },
      {
        action: 'expectState',
        description: 'The Dashboard heading is visible',
        target: { by: 'role', role: 'heading', name: 'Dashboard', exact: false },
        state: 'visible',
        criterion: 'dashboard_visible',
      },
    ],
    successCriteria: [{ key: 'dashboard_visible', description: 'The Dashboard heading is visible' }],
  },
  questions: [],
  assumptions: ['The demo user signs in on /login.'],
};

forEachDialect('PLANNER=openai through the API', (dialect) => {
  const store = useTestStore(dialect);
  let fake: FakeChatCompletions;
  let api: TestApi;
  let key: string;
  let repositoryId: string;

  beforeAll(async () => {
    fake = await startFakeChatCompletions();
    const planner = createOpenAiPlanner({ url: fake.url, model: MODEL, apiKey: API_KEY, timeoutMs: 5_000, sleep: async () => undefined });
    api = await startTestApi(store(), { secrets: SECRETS, planner });
  });

  afterAll(async () => {
    await api.close();
    await fake.close();
  });

  const call = (method: string, path: string, body?: unknown) => callApi(api.base, method, path, body, key);

  beforeEach(async () => {
    fake.reset();
    key = (await createApiKey(store(), 'acme')).key;
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const connected = await call('POST', '/api/repositories', shopRepositoryBody({
      networkAllowlist: ['probe.shop.example'],
      testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD', orderProbeUrl: 'PROBE_URL', orderProbeToken: 'PROBE_TOKEN' },
      evidenceProbeRefs: { order_created: { urlValueRef: 'orderProbeUrl', tokenValueRef: 'orderProbeToken' } },
    }));
    expect(connected.status).toBe(202);
    repositoryId = connected.body.repositoryId as string;
  });

  const create = (task: string) => call('POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: 'https://shop.example', trigger: 'cli' });
  const eventsOf = async (jobId: string) => (await call('GET', `/api/jobs/${jobId}`)).body.events as { index: number; type: string; data: Record<string, unknown> }[];

  it('queues the model’s plan and records the request as a planner.called event with its tokens and time', async () => {
    fake.script({ content: SIGN_IN_ANSWER, usage: { prompt_tokens: 812, completion_tokens: 233, total_tokens: 1045 } });
    const created = await create(TASK);
    expect(created.status).toBe(202);
    expect(Object.keys(created.body).sort()).toEqual(['jobId', 'testId', 'workflowIdentity']);

    const events = await eventsOf(created.body.jobId);
    expect(events.map((event) => [event.index, event.type])).toEqual([
      [0, 'job.created'],
      [1, 'planner.called'],
      [2, 'job.queued'],
    ]);
    expect(events[1]!.data).toEqual({ model: MODEL, attempt: 1, promptTokens: 812, completionTokens: 233, totalTokens: 1045, durationMs: expect.any(Number), outcome: 'ok' });
    const job = await store().getRepository(Job).findOneByOrFail({ id: created.body.jobId });
    expect(job.plan?.steps.map((step) => step.action)).toEqual(['navigate', 'fill', 'fill', 'click', 'expectState']);
  });

  it('shows the model the names of test values and probes, never a secret value, the probe URL or token, or the key', async () => {
    fake.script({ content: SIGN_IN_ANSWER });
    const created = await create(TASK);
    expect(created.status).toBe(202);
    expect(fake.requests).toHaveLength(1);
    const shown = JSON.parse(fake.requests[0]!.body.messages[1].content as string);
    expect(shown).toEqual({ task: TASK, testValueNames: ['demoEmail', 'demoPassword', 'orderProbeUrl', 'orderProbeToken'], evidenceCriteria: ['order_created'] });
    for (const request of fake.requests) {
      for (const secret of Object.values(SECRETS)) expect(request.raw).not.toContain(secret);
    }
    const view = await call('GET', `/api/jobs/${created.body.jobId}`);
    expect(view.text).not.toContain(API_KEY);
  });

  it('asks about a side effect without calling the model', async () => {
    const created = await create('Add the Desk Lamp to the cart and place the order');
    expect(created.status).toBe(202);
    expect(created.body.status).toBe('review_required');
    expect(fake.requests).toHaveLength(0);
    expect((await eventsOf(created.body.jobId)).map((event) => event.type)).toEqual(['job.created', 'job.review_required']);
  });

  it('answers 502 planner.failed when the model answers badly twice, leaving an errored job with both calls and the reason', async () => {
    fake.script({ content: '{"kind": "plan", "plan": {"steps": [', finishReason: 'length' }, { content: '{"kind":', finishReason: 'length' });
    const created = await create(TASK);
    expect(created.status).toBe(502);
    const reason = "the model's answer was cut off twice (finish_reason length)";
    expect(created.body.error).toMatchObject({ code: 'planner.failed', details: { jobId: expect.any(String), reason } });
    expect(created.text).not.toContain(API_KEY);

    const view = await call('GET', `/api/jobs/${created.body.error.details.jobId}`);
    expect(view.status).toBe(200);
    expect(view.body.job).toMatchObject({ status: 'errored', testId: null, workflowIdentity: null });
    const events = view.body.events as { type: string; data: Record<string, unknown> }[];
    expect(events.map((event) => event.type)).toEqual(['job.created', 'planner.called', 'planner.called', 'job.errored']);
    expect(events.slice(1, 3).map((event) => [event.data.attempt, event.data.outcome])).toEqual([
      [1, 'invalid'],
      [2, 'invalid'],
    ]);
    expect(events[3]!.data.reason).toContain(reason);
    expect(view.text).not.toContain(API_KEY);
  });
});
