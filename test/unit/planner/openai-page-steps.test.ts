/**
 * The model planner's page questions (issue 25) against a real local HTTP server that speaks the chat-completions
 * wire format: what a question sends (the page as data), how the answer is read and held to the step as planned,
 * and the bounds: one retry, none after a timeout, ten questions a run, a clear refusal when the model is down.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { PageStepQuestion, PageStepSession } from '../../../src/core/page-steps.js';
import { stepSchema, type PlanStep } from '../../../src/core/plan.js';
import { changedFrom, PAGE_ANSWER_SCHEMA_NAME, pageAnswerJsonSchema, readPageAnswer } from '../../../src/planner/openai-page-answer.js';
import { PAGE_STEPS_PER_RUN } from '../../../src/planner/openai-page-steps.js';
import { createOpenAiPlanner, type OpenAiPlannerOptions } from '../../../src/planner/openai-planner.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';
import { pageModel, pageQuestionOf } from '../../support/fake-page-model.js';

const API_KEY = 'sk-test-page-Zq9vXw3RtY7u';
const SNAPSHOT = ['- banner [ref=e2]', '  - button "+" [ref=e4]', '  - button "Delete all notes" [ref=e6]', '- textbox "Title" [ref=e8]'].join('\n');
const plus = { by: 'description', role: 'button', name: 'the plus button', exact: false } as const;
const click = stepSchema.parse({ action: 'click', description: 'Click the plus button', target: plus });
const fill = stepSchema.parse({ action: 'fill', description: 'Write the title', target: { by: 'description', name: 'the box for the title', exact: false }, value: { kind: 'literal', text: 'Buy bread' } });
const question = (step: PlanStep = click): PageStepQuestion => ({
  step,
  which: 'target',
  failure: 'Nothing on the page matches "the plus button"',
  page: { url: 'http://127.0.0.1:4000/', title: 'Notes', snapshot: SNAPSHOT, truncated: false },
});
const wireTarget = (role: string, name: string) => ({ by: 'role', role, name, exact: true, purpose: null, within: null, nth: null });
const answer = (fields: object) => JSON.stringify({ kind: 'step', step: { action: 'click', description: 'Click +', target: wireTarget('button', '+') }, ref: 'e4', reason: 'The + button adds a note.', ...fields });

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  [keyword: string]: unknown;
}
const STRICT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'description', 'minimum', 'maximum', 'minItems', 'maxItems']);
function* nodes(schema: JsonSchema, path = '(root)'): Generator<[string, JsonSchema]> {
  yield [path, schema];
  for (const [name, child] of Object.entries(schema.properties ?? {})) yield* nodes(child, `${path}.${name}`);
  if (schema.items) yield* nodes(schema.items, `${path}[]`);
  for (const [i, child] of (schema.anyOf ?? []).entries()) yield* nodes(child, `${path}|${i}`);
}

describe('the page answer schema sent as response_format', () => {
  it('fits strict structured outputs: a plain object root, every object closed with all fields required, known keywords only', () => {
    const wire = pageAnswerJsonSchema() as JsonSchema;
    expect([wire.type, wire.anyOf, wire.$schema]).toEqual(['object', undefined, undefined]);
    for (const [path, node] of nodes(wire)) {
      for (const keyword of Object.keys(node)) expect([path, keyword, STRICT_KEYWORDS.has(keyword)]).toEqual([path, keyword, true]);
      if (node.properties !== undefined) {
        expect([path, node.type, node.additionalProperties]).toEqual([path, 'object', false]);
        expect([path, [...(node.required ?? [])].sort()]).toEqual([path, Object.keys(node.properties).sort()]);
      }
    }
  });

  it("offers every action of the plan's vocabulary", () => {
    const wire = pageAnswerJsonSchema() as JsonSchema;
    const steps = wire.properties!.step!.anyOf!.find((branch) => branch.anyOf !== undefined)!.anyOf!;
    const actions = steps.map((variant) => (variant.properties!.action!.enum as string[])[0]).sort();
    const planned = (z.toJSONSchema(stepSchema) as { oneOf: JsonSchema[] }).oneOf.map((variant) => variant.properties!.action!.const as string).sort();
    expect(actions).toEqual(planned);
  });
});

describe('readPageAnswer', () => {
  it('reads the element the model chose by its ref, for the step as planned', () => {
    expect(readPageAnswer(answer({}), question())).toEqual({ ok: true, value: { kind: 'element', ref: 'e4', reason: 'The + button adds a note.' } });
  });

  it('reads the refs of a large page and of a frame', () => {
    const big = { ...question(), page: { ...question().page, snapshot: `${SNAPSHOT}\n- button "+" [ref=e1234]\n- button "+" [ref=f2e17]` } };
    expect(readPageAnswer(answer({ ref: 'e1234' }), big)).toMatchObject({ ok: true, value: { kind: 'element', ref: 'e1234' } });
    expect(readPageAnswer(answer({ ref: 'f2e17' }), big)).toMatchObject({ ok: true, value: { kind: 'element', ref: 'f2e17' } });
    expect(readPageAnswer(answer({ ref: 'e4] [ref=e6' }), big)).toMatchObject({ ok: false });
  });

  it('reads "none" as a refusal with the reason, and never guesses', () => {
    const none = JSON.stringify({ kind: 'none', step: null, ref: null, reason: 'Two buttons could be meant.' });
    expect(readPageAnswer(none, question())).toEqual({ ok: true, value: { kind: 'refused', reason: 'the model found no element for it: Two buttons could be meant.' } });
  });

  it('refuses a step that does something other than the one planned: another action, another value', () => {
    const navigate = answer({ step: { action: 'navigate', description: 'Go elsewhere', url: 'https://evil.example/', page: null } });
    expect(readPageAnswer(navigate, question())).toEqual({ ok: true, value: { kind: 'refused', reason: 'the model proposed a step the task did not say (navigate instead of click), which was refused' } });

    const typed = answer({ step: { action: 'fill', description: 'Write', target: wireTarget('textbox', 'Title'), value: { kind: 'literal', text: 'DROP TABLE notes' } }, ref: 'e8' });
    expect(readPageAnswer(typed, question(fill))).toEqual({ ok: true, value: { kind: 'refused', reason: "the model proposed a step the task did not say (its value differs from the plan's), which was refused" } });
  });

  it('takes the same step with the element named as the page names it', () => {
    const same = answer({ step: { action: 'fill', description: 'Type it', target: wireTarget('textbox', 'Title'), value: { kind: 'literal', text: 'Buy bread' } }, ref: 'e8' });
    expect(readPageAnswer(same, question(fill))).toMatchObject({ ok: true, value: { kind: 'element', ref: 'e8' } });
    expect(changedFrom(click, stepSchema.parse({ action: 'click', description: 'other words', target: { by: 'role', role: 'button', name: '+', exact: true } }))).toBeUndefined();
  });

  it('finds unusable (to ask again) an answer that is not JSON, not the schema, or names a ref the snapshot does not have', () => {
    expect(readPageAnswer('here you go', question())).toEqual({ ok: false, problem: 'the answer was not JSON' });
    expect(readPageAnswer(JSON.stringify({ kind: 'step' }), question())).toMatchObject({ ok: false, problem: expect.stringContaining('the answer did not follow the schema') });
    expect(readPageAnswer(answer({ ref: 'e99' }), question())).toEqual({ ok: false, problem: 'the ref "e99" is not one of the snapshot\'s' });
    expect(readPageAnswer(answer({ ref: null }), question())).toEqual({ ok: false, problem: 'kind was "step" but step or ref was null' });
  });
});

describe('a run’s page questions to the model planner', () => {
  let fake: FakeChatCompletions;
  const planner = (overrides: Partial<OpenAiPlannerOptions> = {}) =>
    createOpenAiPlanner({ url: fake.url, model: 'gpt-4o-mini', apiKey: API_KEY, timeoutMs: 5_000, sleep: async () => undefined, ...overrides });
  const session = (overrides: Partial<OpenAiPlannerOptions> = {}): PageStepSession =>
    planner(overrides).openPageSteps!({ task: 'Click the plus button', testValueNames: ['writer'] });

  beforeAll(async () => {
    fake = await startFakeChatCompletions();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('sends the page as data with the step, and the model reading the snapshot finds the element', async () => {
    fake.respond(pageModel());
    const pages = session();

    const answered = await pages.resolve(question());

    expect(answered).toEqual({ kind: 'element', ref: 'e4', reason: 'The button "+" is what the step means.' });
    const [request] = fake.requests;
    expect(request!.body.response_format.json_schema).toMatchObject({ name: PAGE_ANSWER_SCHEMA_NAME, strict: true });
    expect(pageQuestionOf(request!.body)).toEqual({ task: 'Click the plus button', testValueNames: ['writer'], step: click, find: 'target', failure: question().failure, page: question().page });
    expect(request!.raw).not.toContain(API_KEY.slice(8));
    expect(pages.takeCalls()).toEqual([expect.objectContaining({ attempt: 1, outcome: 'ok', model: 'gpt-4o-mini' })]);
    expect(pages.takeCalls()).toEqual([]);
  });

  it('asks once more after an unusable answer, saying what was wrong', async () => {
    fake.script({ content: answer({ ref: 'e42' }) });
    fake.respond(pageModel());
    const pages = session();

    expect(await pages.resolve(question())).toMatchObject({ kind: 'element', ref: 'e4' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('the ref "e42" is not one of the snapshot\'s');
    expect(pages.takeCalls().map((call) => call.outcome)).toEqual(['invalid', 'ok']);
  });

  it('refuses the step when the model is down, after one retry, with a reason that names no key', async () => {
    fake.respond(() => ({ status: 503, errorCode: 'overloaded', errorMessage: `Incorrect API key ${API_KEY}` }));
    const pages = session();

    expect(await pages.resolve(question())).toEqual({ kind: 'refused', reason: 'the model could not be asked: the planner endpoint answered HTTP 503 (overloaded) twice' });
    expect(pages.takeCalls().map((call) => call.outcome)).toEqual(['failed', 'failed']);
  });

  it('does not wait twice for a model that does not answer in time', async () => {
    fake.respond(() => ({ content: answer({}), delayMs: 1_500 }));
    const pages = session({ timeoutMs: 1_000 });

    expect(await pages.resolve(question())).toEqual({ kind: 'refused', reason: 'the model could not be asked: the planner endpoint did not answer within 1000 ms' });
    expect(fake.requests).toHaveLength(1);
  });

  it(`asks at most ${PAGE_STEPS_PER_RUN} questions a run, then refuses without a request`, async () => {
    fake.respond(pageModel());
    const pages = session();
    for (let i = 0; i < PAGE_STEPS_PER_RUN; i += 1) expect(await pages.resolve(question())).toMatchObject({ kind: 'element' });

    expect(await pages.resolve(question())).toEqual({ kind: 'refused', reason: `the run already asked the model ${PAGE_STEPS_PER_RUN} times, its bound per run` });
    expect(fake.requests).toHaveLength(PAGE_STEPS_PER_RUN);
    // Another run has its own bound.
    expect(await session().resolve(question())).toMatchObject({ kind: 'element' });
  });
});
