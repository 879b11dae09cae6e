/**
 * The OpenAI-compatible planner against a real local HTTP server that speaks the chat-completions wire format
 * (test/support/fake-chat-completions.ts): what it sends, how it reads answers, when it retries, how it gives up,
 * and the side-effect policy it keeps whatever the model says.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { PlannerFailure, taskWithAnswers, type Interpretation, type PlannerCall } from '../../../src/core/interpretation.js';
import { answerJsonSchema, ANSWER_SCHEMA_NAME } from '../../../src/planner/openai-answer-schema.js';
import { createOpenAiPlanner, type OpenAiPlannerOptions } from '../../../src/planner/openai-planner.js';
import type { PlannerContext } from '../../../src/planner/planner.js';
import { BASE_URL_ASSUMPTION, READ_ONLY_ASSUMPTION } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS, type SideEffectKind } from '../../../src/planner/side-effects.js';
import { DEFAULT_USAGE, startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';

const API_KEY = 'sk-test-Zq9vXw3RtY7uI1oP';
const MODEL = 'gpt-4o-mini';
const CONTEXT: PlannerContext = { testValueNames: ['demo_user', 'demo_password'], evidenceCriteria: ['order_created'] };
const PRICING_TASK = 'Check that the pricing page lists three plans';

const plansList = { by: 'role', role: 'list', name: 'Plans', exact: false };
const PRICING_ANSWER = {
  kind: 'plan',
  plan: {
    steps: [
      { action: 'navigate', description: 'Go to /pricing', url: '/pricing' },
      { action: 'expectCount', description: 'The Plans list has three plans', target: plansList, itemRole: 'listitem', count: 3, criterion: 'three_plans' },
    ],
    successCriteria: [{ key: 'three_plans', description: 'The pricing page lists three plans' }],
  },
  questions: [],
  assumptions: ['The plans are shown as a list named Plans.'],
};

const button = (name: string) => ({ by: 'role', role: 'button', name, exact: false });
const cartAnswer = (clickName: string) => ({
  kind: 'plan',
  plan: {
    steps: [
      { action: 'navigate', description: 'Go to /cart', url: '/cart' },
      { action: 'expectText', description: 'The cart shows the Blue Mug', text: 'Blue Mug', target: null, role: null, criterion: 'mug_in_cart' },
      { action: 'click', description: `Click ${clickName}`, target: button(clickName) },
      { action: 'expectText', description: 'The order is confirmed', text: 'Thank you for your order', target: null, role: null, criterion: 'order_confirmed' },
    ],
    successCriteria: [
      { key: 'mug_in_cart', description: 'The cart shows the Blue Mug' },
      { key: 'order_confirmed', description: 'The order is confirmed' },
    ],
  },
  questions: [],
  assumptions: [],
});

const question = (kind: SideEffectKind): string => SIDE_EFFECTS.find((rule) => rule.kind === kind)!.question;

let fake: FakeChatCompletions;
const delays: number[] = [];

function planner(overrides: Partial<OpenAiPlannerOptions> = {}) {
  return createOpenAiPlanner({
    url: fake.url,
    model: MODEL,
    apiKey: API_KEY,
    timeoutMs: 5_000,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...overrides,
  });
}

async function failure(promise: Promise<Interpretation>): Promise<PlannerFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlannerFailure) return error;
    throw error;
  }
  throw new Error('expected a PlannerFailure');
}

/** Nothing the planner hands back may hold the key: not the message, the stack, or any field. */
function expectNoKey(value: unknown): void {
  const text = value instanceof Error ? `${value.message}\n${String(value.stack)}\n${JSON.stringify(value)}` : JSON.stringify(value);
  expect(text).not.toContain(API_KEY);
}

beforeAll(async () => {
  fake = await startFakeChatCompletions();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
  delays.length = 0;
});

describe('OpenAI-compatible planner: the request', () => {
  it('posts to <url>/chat/completions with the bearer key, the model, a strict json_schema and temperature 0', async () => {
    fake.script({ content: PRICING_ANSWER });
    await planner({ url: `${fake.url}/` }).interpret(PRICING_TASK, CONTEXT);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toMatchObject({
      model: MODEL,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: ANSWER_SCHEMA_NAME, strict: true, schema: answerJsonSchema() } },
    });
    expect(request!.body.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user']);
  });

  it('shows the model the task, the test value names and the evidence criteria: names only', async () => {
    fake.script({ content: PRICING_ANSWER });
    await planner().interpret(PRICING_TASK, CONTEXT);
    const shown = JSON.parse(fake.requests[0]!.body.messages[1].content as string);
    expect(shown).toEqual({ task: PRICING_TASK, testValueNames: ['demo_user', 'demo_password'], evidenceCriteria: ['order_created'] });
  });
});

describe('OpenAI-compatible planner: answers', () => {
  it('turns a valid plan into a runnable interpretation with the standard assumptions and one ok call', async () => {
    fake.script({ content: PRICING_ANSWER });
    const result = await planner().interpret(PRICING_TASK, CONTEXT);
    expect(result).toMatchObject({
      kind: 'runnable',
      task: PRICING_TASK,
      plan: {
        steps: [
          { action: 'navigate', url: '/pricing' },
          { action: 'expectCount', target: { by: 'role', role: 'list', name: 'Plans', exact: false }, itemRole: 'listitem', count: 3, criterion: 'three_plans' },
        ],
        successCriteria: [{ key: 'three_plans' }],
      },
    });
    if (result.kind !== 'runnable') throw new Error('not runnable');
    expect(result.assumptions).toEqual(expect.arrayContaining([BASE_URL_ASSUMPTION, READ_ONLY_ASSUMPTION, 'The plans are shown as a list named Plans.']));
    expect(result.calls).toEqual([
      { model: MODEL, attempt: 1, promptTokens: 100, completionTokens: 20, totalTokens: 120, durationMs: expect.any(Number), outcome: 'ok' },
    ]);
  });

  it('passes the model’s questions on as a review, with their ambiguities', async () => {
    fake.script({
      content: {
        kind: 'questions',
        plan: null,
        questions: [{ question: 'Which of the two pricing pages (monthly or yearly) should be checked?', ambiguity: 'The site has two pricing pages.' }],
        assumptions: [],
      },
    });
    const result = await planner().interpret(PRICING_TASK, CONTEXT);
    expect(result).toMatchObject({
      kind: 'needs_clarification',
      questions: ['Which of the two pricing pages (monthly or yearly) should be checked?'],
      ambiguities: ['The site has two pricing pages.'],
      calls: [{ attempt: 1, outcome: 'ok' }],
    });
  });

  it('retries a cut-off answer once, telling the model what was wrong, and records both calls with their own tokens', async () => {
    fake.script(
      { content: '{"kind":"plan","plan":{"steps":[', finishReason: 'length', usage: { prompt_tokens: 90, completion_tokens: 4096, total_tokens: 4186 } },
      { content: PRICING_ANSWER },
    );
    const result = await planner().interpret(PRICING_TASK, CONTEXT);
    expect(result.kind).toBe('runnable');
    expect(result.calls).toEqual([
      { model: MODEL, attempt: 1, promptTokens: 90, completionTokens: 4096, totalTokens: 4186, durationMs: expect.any(Number), outcome: 'invalid', reason: "the model's answer was cut off (finish_reason length)" },
      { model: MODEL, attempt: 2, promptTokens: 100, completionTokens: 20, totalTokens: 120, durationMs: expect.any(Number), outcome: 'ok' },
    ]);
    const retry = fake.requests[1]!.body.messages as { role: string; content: string }[];
    expect(retry).toHaveLength(3);
    expect(retry[2]).toMatchObject({ role: 'user', content: expect.stringContaining('cut off') });
    expect(delays).toEqual([]);
  });

  it.each([
    ['cut off twice', { content: '{"kind":', finishReason: 'length' }, "the model's answer was cut off twice (finish_reason length)"],
    ['not JSON twice', { content: 'Sure! Here is your plan: …' }, "the model's answer was not usable twice (the second time: the answer was not JSON)"],
    ['no choice twice', { noChoices: true }, 'the planner endpoint answered twice without a choice'],
    [
      'off the schema twice',
      { content: { kind: 'plan', plan: { steps: [] }, questions: [], assumptions: [] } },
      "the model's answer was not usable twice (the second time: the answer did not follow the schema: plan.steps: Too small: expected array to have >=1 items)",
    ],
  ])('gives up with a PlannerFailure after an answer %s, holding both calls', async (_what, answer, reason) => {
    fake.script(answer, answer);
    const error = await failure(planner().interpret(PRICING_TASK, CONTEXT));
    expect(error.reason).toBe(reason);
    expect(error.calls.map((call: PlannerCall) => [call.attempt, call.outcome])).toEqual([
      [1, 'invalid'],
      [2, 'invalid'],
    ]);
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a plan that names a test value that is not configured, and takes the corrected answer', async () => {
    const filling = (name: string) => ({
      kind: 'plan',
      plan: {
        steps: [
          { action: 'navigate', description: 'Go to /login', url: '/login' },
          { action: 'fill', description: 'Fill Password', target: { by: 'label', role: null, name: 'Password', exact: false }, value: { kind: 'testValue', name } },
        ],
        successCriteria: [],
      },
      questions: [],
      assumptions: [],
    });
    fake.script({ content: filling('admin_password') }, { content: filling('demo_password') });
    const result = await planner().interpret('Go to the login page and fill in the password', CONTEXT);
    expect(result).toMatchObject({ kind: 'runnable', plan: { steps: [{}, { value: { kind: 'testValue', name: 'demo_password' } }] } });
    expect(result.calls?.[0]).toMatchObject({ outcome: 'invalid', reason: expect.stringContaining('"admin_password", which is not configured (known: demo_user, demo_password)') });
    expect(fake.requests[1]!.body.messages[2].content).toContain('admin_password');
  });

  it('refuses a probe step for a criterion without an evidence probe', async () => {
    const probing = {
      kind: 'plan',
      plan: {
        steps: [{ action: 'probe', description: 'Ask the refunds probe', criterion: 'refund_issued' }],
        successCriteria: [{ key: 'refund_issued', description: 'A refund exists' }],
      },
      questions: [],
      assumptions: [],
    };
    fake.script({ content: probing }, { content: probing });
    const error = await failure(planner().interpret('Check that the refund shows up in the back office', CONTEXT));
    expect(error.reason).toContain('calls a probe for "refund_issued", which has no evidence probe (known: order_created)');
  });
});

describe('OpenAI-compatible planner: HTTP failures', () => {
  it('retries once after HTTP 500, waiting first, and records the failed call without tokens', async () => {
    fake.script({ status: 500, errorCode: 'server_error' }, { content: PRICING_ANSWER });
    const result = await planner().interpret(PRICING_TASK, CONTEXT);
    expect(result.kind).toBe('runnable');
    expect(result.calls).toEqual([
      { model: MODEL, attempt: 1, promptTokens: 0, completionTokens: 0, totalTokens: 0, durationMs: expect.any(Number), outcome: 'failed', reason: 'the planner endpoint answered HTTP 500 (server_error)' },
      expect.objectContaining({ attempt: 2, outcome: 'ok', totalTokens: DEFAULT_USAGE.total_tokens }),
    ]);
    expect(fake.requests[1]!.body.messages).toHaveLength(2);
    expect(delays).toEqual([500]);
  });

  it('gives up after 429 twice', async () => {
    fake.script({ status: 429, errorCode: 'rate_limit_exceeded' }, { status: 429, errorCode: 'rate_limit_exceeded' });
    const error = await failure(planner().interpret(PRICING_TASK, CONTEXT));
    expect(error.reason).toBe('the planner endpoint answered HTTP 429 (rate_limit_exceeded) twice');
    expect(error.calls.map((call) => call.outcome)).toEqual(['failed', 'failed']);
  });

  it.each([
    [401, 'invalid_api_key'],
    [400, 'invalid_request_error'],
    [404, 'model_not_found'],
  ])('fails at once on HTTP %i (a configuration problem), never showing the key the endpoint echoed', async (status, code) => {
    fake.script({ status, errorCode: code, errorMessage: `Incorrect API key provided: ${API_KEY}.` }, { content: PRICING_ANSWER });
    const error = await failure(planner().interpret(PRICING_TASK, CONTEXT));
    expect(fake.requests).toHaveLength(1);
    expect(error.reason).toBe(`the planner endpoint answered HTTP ${status} (${code}); check PLANNER_URL, PLANNER_MODEL and PLANNER_API_KEY`);
    expect(error.calls).toEqual([expect.objectContaining({ attempt: 1, outcome: 'failed', promptTokens: 0 })]);
    expectNoKey(error);
    expectNoKey(error.calls);
  });

  it('stops a request at the timeout and retries it once', async () => {
    fake.script({ content: PRICING_ANSWER, delayMs: 3_000 }, { content: PRICING_ANSWER, delayMs: 3_000 });
    const started = performance.now();
    const error = await failure(planner({ timeoutMs: 300 }).interpret(PRICING_TASK, CONTEXT));
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(error.reason).toBe('the planner endpoint did not answer within 300 ms, twice');
    expect(error.calls.map((call) => [call.outcome, call.reason])).toEqual([
      ['failed', 'the planner endpoint did not answer within 300 ms'],
      ['failed', 'the planner endpoint did not answer within 300 ms'],
    ]);
    for (const call of error.calls) expect(call.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('stops reading an answer larger than 1 MiB, and takes a retry that fits', async () => {
    fake.script({ content: 'x'.repeat(1_100_000) }, { content: PRICING_ANSWER });
    const result = await planner().interpret(PRICING_TASK, CONTEXT);
    expect(result.kind).toBe('runnable');
    expect(result.calls?.map((call) => [call.outcome, call.reason])).toEqual([
      ['invalid', "the planner endpoint's answer was larger than 1 MiB"],
      ['ok', undefined],
    ]);
  });

  it('names the network error when nothing listens', async () => {
    const closed = await startFakeChatCompletions();
    await closed.close();
    const error = await failure(planner({ url: closed.url }).interpret(PRICING_TASK, CONTEXT));
    expect(error.reason).toBe('the planner endpoint could not be reached twice (ECONNREFUSED)');
    expect(error.calls).toHaveLength(2);
  });
});

describe('OpenAI-compatible planner: the side-effect floor', () => {
  it('asks about a side effect in the task before any request', async () => {
    const result = await planner().interpret('Add the Blue Mug to the cart and place the order', CONTEXT);
    expect(result).toMatchObject({ kind: 'needs_clarification', questions: [question('purchase')] });
    expect(result.calls).toBeUndefined();
    expect(fake.requests).toHaveLength(0);
  });

  it('asks about a vague task before any request', async () => {
    const result = await planner().interpret('test the site', CONTEXT);
    expect(result.kind).toBe('needs_clarification');
    expect(fake.requests).toHaveLength(0);
  });

  it('turns a side-effecting click the model made up for a read-only task into the policy’s question', async () => {
    fake.script({ content: cartAnswer('Place order') });
    const result = await planner().interpret('Check that the cart shows the Blue Mug', CONTEXT);
    expect(result).toMatchObject({
      kind: 'needs_clarification',
      questions: [question('purchase')],
      ambiguities: [expect.stringContaining('step 3 of the plan, "Click Place order", would do that, and no answer allows it')],
      calls: [{ outcome: 'ok' }],
    });
  });

  it('runs that click once an answer allows the purchase', async () => {
    fake.script({ content: cartAnswer('Place order') });
    const task = taskWithAnswers('Check that the cart shows the Blue Mug', { questions: [question('purchase')], answers: ['Yes, pay with the test card'] });
    const result = await planner().interpret(task, CONTEXT);
    expect(result).toMatchObject({ kind: 'runnable', plan: { steps: [{}, {}, { action: 'click', target: { name: 'Place order' } }, {}] } });
    if (result.kind !== 'runnable') throw new Error('not runnable');
    expect(result.assumptions).not.toContain(READ_ONLY_ASSUMPTION);
    expect(result.assumptions.some((text) => text.startsWith('Answered "Yes, pay with the test card"'))).toBe(true);
  });

  it('ends the plan before that click when the answer declines, dropping the criteria only later steps verified', async () => {
    fake.script({ content: cartAnswer('Place order') });
    const task = taskWithAnswers('Check that the cart shows the Blue Mug', { questions: [question('purchase')], answers: ['No, stop before paying'] });
    const result = await planner().interpret(task, CONTEXT);
    expect(result).toMatchObject({
      kind: 'runnable',
      plan: { steps: [{ action: 'navigate' }, { action: 'expectText', criterion: 'mug_in_cart' }], successCriteria: [{ key: 'mug_in_cart' }] },
    });
    if (result.kind !== 'runnable') throw new Error('not runnable');
    expect(result.plan.steps).toHaveLength(2);
    expect(result.assumptions).toContain('Stops before "Click Place order", as answered ("No, stop before paying"): nothing from there on runs.');
  });

  it('lets a harmless click through', async () => {
    fake.script({ content: cartAnswer('Continue shopping') });
    const result = await planner().interpret('Check that the cart shows the Blue Mug', CONTEXT);
    expect(result.kind).toBe('runnable');
  });
});
