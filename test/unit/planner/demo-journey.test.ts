/**
 * The fixture app's journey (test/fixtures/demo-app/README.md): the plan must name the app's real labels, so that a
 * runner resolving them with Playwright's role and label locators drives the shop from sign-in to the probe.
 */
import { describe, expect, it } from '@jest/globals';
import { taskWithAnswers, type Interpretation } from '../../../src/core/interpretation.js';
import { planSchema, testValuesOf, type PlanStep } from '../../../src/core/plan.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS } from '../../../src/planner/side-effects.js';
import { PRODUCTS } from '../../fixtures/demo-app/catalog.js';
import { DEFAULT_ACCOUNT, DEFAULT_COUPONS } from '../../fixtures/demo-app/options.js';

const TASK =
  'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10, check that the total shows $90, check out and place the order, and verify the order through the probe';
const CONTEXT = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: ['order_created'] };
const PURCHASE = SIDE_EFFECTS.find((rule) => rule.kind === 'purchase')!.question;
const planner = createRulePlanner();

async function answered(answer: string): Promise<Interpretation> {
  const first = await planner.interpret(TASK, CONTEXT);
  if (first.kind !== 'needs_clarification') throw new Error('the journey should ask first');
  return planner.interpret(taskWithAnswers(TASK, { questions: first.questions, answers: [answer] }), CONTEXT);
}

const bare = (steps: PlanStep[]) => steps.map(({ description: _description, ...step }) => step);

describe('the demo shop journey', () => {
  it('first asks about the real order it would place, and nothing else', async () => {
    const result = await planner.interpret(TASK, CONTEXT);

    expect(result).toEqual({
      kind: 'needs_clarification',
      questions: [PURCHASE],
      ambiguities: ['Buying or paying places a real order or charges a real payment method: "check out", "place the order".'],
      assumptions: expect.any(Array),
    });
  });

  it('once the order is allowed, signs in, adds the lamp, applies the coupon, checks the total, orders and probes', async () => {
    const result = await answered('Yes, place the order; it is a test store');
    if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);

    expect(bare(result.plan.steps)).toEqual([
      { action: 'navigate', url: '/login', page: 'sign-in' },
      { action: 'fill', target: { by: 'label', name: 'Email', exact: false }, value: { kind: 'testValue', name: 'demoEmail' } },
      { action: 'fill', target: { by: 'label', name: 'Password', exact: false }, value: { kind: 'testValue', name: 'demoPassword' } },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Sign in', exact: false, purpose: 'signIn' } },
      { action: 'click', target: { by: 'description', role: 'button', name: 'Add to cart', exact: false, within: { text: 'Desk Lamp' } } },
      { action: 'navigate', url: '/cart' },
      { action: 'fill', target: { by: 'label', name: 'Coupon', exact: false }, value: { kind: 'literal', text: 'SAVE10' } },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Apply', exact: false } },
      { action: 'expectText', text: '$90', criterion: 'total_shows_90' },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Checkout', exact: false } },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Place order', exact: false } },
      { action: 'probe', criterion: 'order_created' },
    ]);
    expect(result.plan.successCriteria).toEqual([
      { key: 'total_shows_90', description: 'the total shows $90' },
      { key: 'order_created', description: 'verify the order through the probe' },
    ]);
    expect(planSchema.parse(result.plan)).toEqual(result.plan);
    // The allowed order marks the plan: a run of it that stopped mid-way is not repeated automatically.
    expect(result.plan.sideEffects).toBe(true);
    expect(result.assumptions).toEqual(
      expect.arrayContaining([`Answered "Yes, place the order; it is a test store" to ${JSON.stringify(PURCHASE)}`, 'Reads "place the order" as a click on the "Place order" button.']),
    );
  });

  it('names what the shop really shows: the lamp\'s add button, its coupon, its total', async () => {
    const result = await answered('Yes, place the order; it is a test store');
    if (result.kind !== 'runnable') throw new Error('not runnable');
    const lamp = PRODUCTS.find((product) => product.name === 'Desk Lamp')!;
    const add = result.plan.steps[4];
    const coupon = result.plan.steps[6];

    // The shop's "Add Desk Lamp to cart" says the action's words, and only the lamp's card shows its name.
    expect(add.action === 'click' && add.target.name.split(' ').every((word) => `Add ${lamp.name} to cart`.includes(word))).toBe(true);
    expect(PRODUCTS.filter((product) => add.action === 'click' && product.name.includes(add.target.within?.text ?? '?'))).toHaveLength(1);
    expect(coupon.action === 'fill' && coupon.value.kind === 'literal' && coupon.value.text in DEFAULT_COUPONS).toBe(true);
    const total = Math.round((lamp.priceCents * (100 - DEFAULT_COUPONS.SAVE10)) / 100 / 100);
    expect(result.plan.steps[8]).toMatchObject({ action: 'expectText', text: `$${total}` });
  });

  it('carries the credentials by name only', async () => {
    const result = await answered('Yes, place the order; it is a test store');
    if (result.kind !== 'runnable') throw new Error('not runnable');

    expect(testValuesOf(result.plan)).toEqual(['demoEmail', 'demoPassword']);
    expect(JSON.stringify(result)).not.toContain(DEFAULT_ACCOUNT.password);
    expect(JSON.stringify(result)).not.toContain(DEFAULT_ACCOUNT.email);
  });

  it('stops before checking out when the answer says no', async () => {
    const result = await answered('No, stop before paying');
    if (result.kind !== 'runnable') throw new Error('not runnable');

    expect(result.plan.steps.map((step) => step.action)).toEqual(['navigate', 'fill', 'fill', 'click', 'click', 'navigate', 'fill', 'click', 'expectText']);
    // Declined, the side effect is not in the plan: a stopped run may start again.
    expect(result.plan.sideEffects).toBeUndefined();
    expect(result.assumptions).toContain('Stops before "check out", as answered ("No, stop before paying"): nothing from there on runs.');
  });

  it('asks for the password before anything runs when no test value holds it', async () => {
    const context = { testValueNames: ['demoEmail'], evidenceCriteria: ['order_created'] };
    const first = await planner.interpret(TASK, context);
    if (first.kind !== 'needs_clarification') throw new Error('should ask');
    const child = taskWithAnswers(TASK, { questions: first.questions, answers: ['Yes, place the order; it is a test store'] });

    expect(await planner.interpret(child, context)).toMatchObject({
      kind: 'needs_clarification',
      questions: ["Which test value holds the demo user's password? Configure it in testValueSecretRefs."],
    });
  });

  it('asks how to verify the order when the repository has no probe', async () => {
    const context = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: [] };
    const child = taskWithAnswers(TASK, { questions: [PURCHASE], answers: ['yes'] });

    expect(await planner.interpret(child, context)).toMatchObject({
      kind: 'needs_clarification',
      questions: ['Which evidence probe should verify "verify the order through the probe"? None is configured: add one to the repository\'s evidenceProbeRefs.'],
    });
  });
});
