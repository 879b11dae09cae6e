/**
 * The model's answer schema: what `response_format` carries must be accepted by OpenAI's strict structured outputs
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas), must say the same steps as
 * `planSchema`, and an answer that follows it must come back as the plan it describes.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { taskWithAnswers } from '../../../src/core/interpretation.js';
import { planSchema, type Plan } from '../../../src/core/plan.js';
import { readAnswer } from '../../../src/planner/openai-answer.js';
import { answerJsonSchema } from '../../../src/planner/openai-answer-schema.js';
import { interpretTask } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS } from '../../../src/planner/side-effects.js';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  [keyword: string]: unknown;
}

const wire = answerJsonSchema() as JsonSchema;
const CONTEXT = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: ['order_created'] };

/** Keywords strict mode accepts (no oneOf/allOf/not, no string lengths, no default, no const, no $schema). */
const STRICT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'description', 'minimum', 'maximum', 'minItems', 'maxItems']);

function* nodes(schema: JsonSchema, path = '(root)'): Generator<[string, JsonSchema]> {
  yield [path, schema];
  for (const [name, child] of Object.entries(schema.properties ?? {})) yield* nodes(child, `${path}.${name}`);
  if (schema.items) yield* nodes(schema.items, `${path}[]`);
  for (const [i, child] of (schema.anyOf ?? []).entries()) yield* nodes(child, `${path}|${i}`);
}

/** A union's object branch (nullable objects are `anyOf: [object, null]`). */
const objectOf = (schema: JsonSchema): JsonSchema => (schema.anyOf ? schema.anyOf.find((branch) => branch.type === 'object')! : schema);
const stepVariants = (steps: JsonSchema[], action: (variant: JsonSchema) => unknown) =>
  Object.fromEntries(steps.map((variant) => [String(action(variant)), Object.keys(variant.properties!).sort()]));

const planJson = z.toJSONSchema(planSchema) as JsonSchema;
const planSteps = planJson.properties!.steps!.items!.oneOf!;
const wireSteps = objectOf(wire.properties!.plan!).properties!.steps!.items!.anyOf!;

describe('the answer schema sent as response_format', () => {
  it('fits strict structured outputs: a plain object root, every object closed with all fields required, known keywords only', () => {
    expect(wire.type).toBe('object');
    expect(wire.anyOf).toBeUndefined();
    expect(wire.$schema).toBeUndefined();
    for (const [path, node] of nodes(wire)) {
      for (const keyword of Object.keys(node)) expect([path, keyword, STRICT_KEYWORDS.has(keyword)]).toEqual([path, keyword, true]);
      if (node.properties !== undefined) {
        expect([path, node.type, node.additionalProperties]).toEqual([path, 'object', false]);
        expect([path, [...(node.required ?? [])].sort()]).toEqual([path, Object.keys(node.properties).sort()]);
      }
    }
  });

  it('has the same actions, with the same fields, as planSchema', () => {
    const planned = stepVariants(planSteps, (variant) => variant.properties!.action!.const);
    const wired = stepVariants(wireSteps, (variant) => variant.properties!.action!.enum![0]);
    expect(wired).toEqual(planned);
    expect(Object.keys(planned)).toHaveLength(27);
    expect(Object.keys(planned)).toEqual(
      expect.arrayContaining(['dblclick', 'rightClick', 'dialog', 'hover', 'clear', 'scrollTo', 'dragTo', 'upload', 'reload', 'goBack', 'goForward', 'expectItems', 'expectStorage']),
    );
  });

  it('has the same targets, values and states as planSchema', () => {
    const field = (steps: JsonSchema[], action: string, name: string) =>
      steps.find((variant) => [variant.properties!.action!.const, variant.properties!.action!.enum?.[0]].includes(action))!.properties![name]!;
    const target = (steps: JsonSchema[]) => objectOf(field(steps, 'press', 'target'));
    expect(Object.keys(target(wireSteps).properties!).sort()).toEqual(Object.keys(target(planSteps).properties!).sort());
    expect(target(wireSteps).properties!.by!.enum).toEqual(target(planSteps).properties!.by!.enum);
    expect(field(wireSteps, 'expectState', 'state').enum).toEqual(field(planSteps, 'expectState', 'state').enum);
    const kinds = (value: JsonSchema) => (value.anyOf ?? value.oneOf)!.map((branch) => branch.properties!.kind!.const ?? branch.properties!.kind!.enum![0]);
    expect(kinds(field(wireSteps, 'fill', 'value'))).toEqual(kinds(field(planSteps, 'fill', 'value')));
  });
});

/** `plan` as a model following the schema would send it: every absent field as null. */
function asAnswer(plan: Plan): string {
  const fields = (action: string) => Object.keys(wireSteps.find((variant) => variant.properties!.action!.enum![0] === action)!.properties!);
  const steps = plan.steps.map((step) => {
    const full: Record<string, unknown> = Object.fromEntries(fields(step.action).map((name) => [name, null]));
    Object.assign(full, step);
    if ('target' in step && step.target !== undefined) full.target = { role: null, ...step.target };
    if ('to' in step) full.to = { role: null, ...step.to };
    return full;
  });
  return JSON.stringify({ kind: 'plan', plan: { steps, successCriteria: plan.successCriteria }, questions: [], assumptions: [] });
}

const EVERY_ACTION: Plan = {
  steps: [
    { action: 'navigate', description: 'Go to /settings', url: '/settings' },
    { action: 'waitFor', description: 'Wait for the form', target: { by: 'role', role: 'form', name: 'Settings', exact: false } },
    { action: 'select', description: 'Choose a language', target: { by: 'label', name: 'Language', exact: false }, value: { kind: 'literal', text: 'English' } },
    { action: 'check', description: 'Tick dark mode', target: { by: 'label', name: 'Dark mode', exact: true }, checked: true },
    { action: 'fill', description: 'Type the email', target: { by: 'placeholder', name: 'you@example.com', exact: false }, value: { kind: 'testValue', name: 'demoEmail' } },
    { action: 'press', description: 'Press Tab', key: 'Tab' },
    { action: 'expectState', description: 'The email is valid', target: { by: 'label', name: 'Email', exact: false }, state: 'valid', criterion: 'email_valid' },
    { action: 'expectCount', description: 'Three themes', target: { by: 'role', role: 'list', name: 'Themes', exact: false }, count: 3, criterion: 'themes' },
    { action: 'expectUrl', description: 'Still on settings', contains: '/settings' },
    { action: 'expectText', description: 'Saved', text: 'Saved', target: { by: 'text', name: 'Status', exact: false } },
    { action: 'probe', description: 'Ask the probe', criterion: 'order_created' },
    { action: 'dblclick', description: 'Edit Pay rent', target: { by: 'text', name: 'Pay rent', exact: true } },
    { action: 'hover', description: 'Point at the row of Pay rent', target: { by: 'role', role: 'listitem', name: 'Pay rent', exact: false } },
    { action: 'clear', description: 'Empty the search', target: { by: 'description', role: 'textbox', name: 'the search box at the top', exact: false } },
    { action: 'scrollTo', description: 'Scroll to the footer', target: { by: 'role', role: 'contentinfo', name: '', exact: false } },
    {
      action: 'dragTo',
      description: 'Drag the second card to Done',
      target: { by: 'role', role: 'article', name: '', exact: false, nth: 2 },
      to: { by: 'role', role: 'region', name: 'Done', exact: false },
    },
    { action: 'upload', description: 'Attach a receipt', target: { by: 'label', name: 'Receipt', exact: false }, fileName: 'receipt.pdf' },
    { action: 'check', description: 'Tick Pay rent', target: { by: 'role', role: 'checkbox', name: '', exact: false, within: { text: 'Pay rent' } }, checked: true },
    { action: 'reload', description: 'Reload the page' },
    { action: 'rightClick', description: 'Right-click the drop zone', target: { by: 'description', name: 'the dashed drop zone', exact: false } },
    { action: 'dialog', description: 'The alert says it was selected; press OK', accept: true, text: 'You selected it', criterion: 'themes' },
    { action: 'dialog', description: 'Type a name into the prompt and press OK', accept: true, promptText: 'Ada' },
    { action: 'dialog', description: 'Cancel the confirm', accept: false },
    { action: 'goBack', description: 'Go back' },
    { action: 'goForward', description: 'Go forward' },
    { action: 'expectState', description: 'The Active filter is selected', target: { by: 'role', role: 'link', name: 'Active', exact: true }, state: 'selected' },
    { action: 'expectState', description: 'The last field has the focus', target: { by: 'role', role: 'textbox', name: '', exact: false, nth: -1 }, state: 'focused' },
    {
      action: 'expectItems',
      description: 'The list shows the two tasks in order',
      target: { by: 'role', role: 'list', name: 'Tasks', exact: false },
      itemRole: 'listitem',
      texts: ['Buy milk', 'Pay rent'],
      only: true,
      ordered: true,
      criterion: 'themes',
    },
    { action: 'expectItems', description: 'Some row shows Ada', itemRole: 'row', texts: ['Ada'], only: false, ordered: false },
    { action: 'expectStorage', description: 'Two todos are saved, one completed', key: 'react-todos', texts: ['Buy milk'], count: 1, where: 'completed' },
  ],
  successCriteria: [
    { key: 'email_valid', description: 'The email is valid' },
    { key: 'themes', description: 'Three themes are offered' },
    { key: 'order_created', description: 'The probe confirms it' },
  ],
};

describe('readAnswer', () => {
  it('reads an answer of every action back into the plan it describes', () => {
    expect(readAnswer(asAnswer(EVERY_ACTION), CONTEXT)).toEqual({ ok: true, answer: { kind: 'plan', plan: EVERY_ACTION, assumptions: [] } });
  });

  it('reads the rule planner’s demo journey, sent back as a model would, into the same plan', () => {
    const task = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10, check that the total shows $90, check out and place the order, and verify the order through the probe';
    const purchase = SIDE_EFFECTS.find((rule) => rule.kind === 'purchase')!.question;
    const result = interpretTask(taskWithAnswers(task, { questions: [purchase], answers: ['Yes, it is a test store'] }), CONTEXT);
    if (result.kind !== 'runnable') throw new Error('the journey should be runnable');
    // `sideEffects` and `allowedSideEffects` are the planner's marks from the answers, not something the model writes.
    expect(result.plan).toMatchObject({ sideEffects: true, allowedSideEffects: ['purchase'] });
    const { sideEffects: _marked, allowedSideEffects: _allowed, ...written } = result.plan;
    expect(readAnswer(asAnswer(written), CONTEXT)).toEqual({ ok: true, answer: { kind: 'plan', plan: written, assumptions: [] } });
  });

  const answer = (plan: Plan) => asAnswer(plan);
  const withStep = (index: number, change: Record<string, unknown>): Plan => ({
    ...EVERY_ACTION,
    steps: EVERY_ACTION.steps.map((step, i) => (i === index ? ({ ...step, ...change } as Plan['steps'][number]) : step)),
  });

  it.each([
    ['empty text', '', 'the answer was empty'],
    ['text that is not JSON', 'Here is the plan:', 'the answer was not JSON'],
    ['an unknown field', JSON.stringify({ kind: 'plan', plan: null, questions: [], assumptions: [], extra: 1 }), 'the answer did not follow the schema: (answer): Unrecognized key: "extra"'],
    ['kind plan without a plan', JSON.stringify({ kind: 'plan', plan: null, questions: [], assumptions: [] }), 'kind was "plan" but plan was null'],
    ['kind questions without questions', JSON.stringify({ kind: 'questions', plan: null, questions: [], assumptions: [] }), 'kind was "questions" but no question was given'],
    ['a test value that is not configured', answer(withStep(4, { value: { kind: 'testValue', name: 'rootPassword' } })), 'step 5 (fill) names the test value "rootPassword", which is not configured (known: demoEmail, demoPassword)'],
    ['a probe without an evidence probe', answer({ ...EVERY_ACTION, steps: [{ action: 'probe', description: 'x', criterion: 'themes' }] }), 'step 1 (probe) calls a probe for "themes", which has no evidence probe (known: order_created)'],
    ['a criterion not in successCriteria', answer(withStep(7, { criterion: 'five_themes' })), 'step 8 (expectCount) verifies the criterion "five_themes", which is not in successCriteria'],
    ['a criterion listed twice', answer({ ...EVERY_ACTION, successCriteria: [...EVERY_ACTION.successCriteria, { key: 'themes', description: 'again' }] }), 'the success criterion "themes" was listed twice'],
    ['a description past planSchema’s limit', answer(withStep(0, { description: 'x'.repeat(501) })), 'the plan was not valid: steps.0.description: Too big: expected string to have <=500 characters'],
    ['a bad criterion key', answer({ ...EVERY_ACTION, successCriteria: [{ key: 'has space', description: 'x' }] }), 'the plan was not valid: successCriteria.0.key: a criterion key is letters, digits, _ . -'],
  ])('refuses %s, saying why', (_what, content, problem) => {
    expect(readAnswer(content, CONTEXT)).toEqual({ ok: false, problem });
  });

  it('reads a list check without an item role as list items', () => {
    const plan: Plan = { steps: [{ action: 'expectItems', description: 'Shows milk', itemRole: 'listitem', texts: ['Milk'], only: false, ordered: false }], successCriteria: [] };
    const sent = JSON.parse(answer(plan)) as { plan: { steps: Record<string, unknown>[] } };
    sent.plan.steps[0]!.itemRole = null;
    expect(readAnswer(JSON.stringify(sent), CONTEXT)).toEqual({ ok: true, answer: { kind: 'plan', plan, assumptions: [] } });
  });

  it('refuses a position counted from 0, and a nameless target that says nothing about which', () => {
    const target = (change: Record<string, unknown>) => answer({ ...EVERY_ACTION, steps: [{ action: 'hover', description: 'x', target: { by: 'text', name: '', exact: false, ...change } } as Plan['steps'][number]] });
    expect(readAnswer(target({ role: 'row', nth: 0 }), CONTEXT)).toEqual({ ok: false, problem: 'the plan was not valid: steps.0.target.nth: nth counts from 1 (or -1 for the last)' });
    expect(readAnswer(target({}), CONTEXT)).toEqual({ ok: false, problem: 'the plan was not valid: steps.0.target: a target without a name needs a role, a container (within) or a position (nth)' });
  });

  it('refuses more steps than the bound', () => {
    const many: Plan = { steps: Array.from({ length: 51 }, () => EVERY_ACTION.steps[0]!), successCriteria: [] };
    expect(readAnswer(answer(many), CONTEXT)).toEqual({ ok: false, problem: 'the answer did not follow the schema: plan.steps: Too big: expected array to have <=50 items' });
  });
});
