import { describe, expect, it } from '@jest/globals';
import { taskWithAnswers, type Interpretation } from '../../../src/core/interpretation.js';
import { planSchema } from '../../../src/core/plan.js';
import { createRulePlanner, declines } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS, type SideEffectKind } from '../../../src/planner/side-effects.js';
import { VAGUE_QUESTION } from '../../../src/planner/vagueness.js';

const planner = createRulePlanner();
const CONTEXT = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: ['order_created'] };
const interpret = (task: string, context = CONTEXT): Promise<Interpretation> => planner.interpret(task, context);
const question = (kind: SideEffectKind): string => SIDE_EFFECTS.find((rule) => rule.kind === kind)!.question;
const unknown = (clause: string) => `I could not turn "${clause}" into a browser step; what should I do there?`;
const questionsOf = (result: Interpretation): string[] => (result.kind === 'needs_clarification' ? result.questions : []);
const actionsOf = (result: Interpretation): string[] => (result.kind === 'runnable' ? result.plan.steps.map((step) => step.action) : []);

describe('planning: a clause that is no browser step', () => {
  it.each([
    ['Go to /pricing, frobnicate the Pro plan and check that the Pro heading is visible', 'frobnicate the Pro plan'],
    ['drag the slider to 50%', 'drag the slider to 50%'],
    ['go to /pricing and take a screenshot of the plans', 'take a screenshot of the plans'],
    ['wait 2 seconds and click Apply', 'wait 2 seconds'],
    ['go to /pricing and frobnicate the widget', 'frobnicate the widget'],
  ])('%j asks about %j, quoting it, instead of dropping it', async (task, clause) => {
    const result = await interpret(task);

    expect(result).toMatchObject({
      kind: 'needs_clarification',
      questions: [unknown(clause)],
      ambiguities: [`"${clause}" is not a step the rule planner knows (go to, click, fill, select, check, press, wait for, expect, probe).`],
    });
  });

  it('asks about every such clause, in task order', async () => {
    expect(questionsOf(await interpret('juggle the cart, go to /pricing and then moonwalk'))).toEqual([unknown('juggle the cart'), unknown('moonwalk')]);
  });

  it('reads the answer in place of the clause', async () => {
    const task = 'Go to /pricing, frobnicate the Pro plan and check that the Pro heading is visible';
    const child = taskWithAnswers(task, { questions: [unknown('frobnicate the Pro plan')], answers: ['click the Pro link'] });

    const result = await interpret(child);

    expect(result.kind === 'runnable' && result.plan.steps.map((step) => step.description)).toEqual([
      'Go to /pricing',
      'Click the "Pro" link',
      'Expect the "Pro" heading to be visible',
    ]);
  });

  it.each(['skip it', 'Skip', 'ignore that', 'nothing', 'leave it out'])('drops the clause when answered %j, and says so', async (answer) => {
    const task = 'go to /pricing and frobnicate the widget';
    const child = taskWithAnswers(task, { questions: [unknown('frobnicate the widget')], answers: [answer] });

    const result = await interpret(child);

    expect(actionsOf(result)).toEqual(['navigate']);
    expect(result.assumptions).toContain(`Leaves out "frobnicate the widget", as answered (${JSON.stringify(answer)}).`);
  });

  it('asks again after an evasive answer, and about an answer it cannot read either', async () => {
    const task = 'go to /pricing and frobnicate the widget';
    const evasive = taskWithAnswers(task, { questions: [unknown('frobnicate the widget')], answers: ['not sure'] });
    const unreadable = taskWithAnswers(task, { questions: [unknown('frobnicate the widget')], answers: ['juggle'] });

    expect(await interpret(evasive)).toMatchObject({
      questions: [unknown('frobnicate the widget')],
      ambiguities: [expect.stringContaining('The earlier answer "not sure" does not decide it.')],
    });
    expect(questionsOf(await interpret(unreadable))).toEqual([unknown('juggle')]);
  });
});

describe('planning comes after the clarification policy', () => {
  it('asks only the policy questions while they are open, exactly as before', async () => {
    const result = await interpret('Delete the demo account and frobnicate the widget');

    expect(questionsOf(result)).toEqual([question('delete')]);
  });

  it('then plans, and asks about what it could not plan', async () => {
    const task = taskWithAnswers('Delete the demo account and frobnicate the widget', { questions: [question('delete')], answers: ['yes, it is demo data'] });

    expect(questionsOf(await interpret(task))).toEqual([unknown('frobnicate the widget')]);
  });

  it('lets an allowed side effect become its click', async () => {
    const task = taskWithAnswers('Sign in as the demo user and place the order', { questions: [question('purchase')], answers: ['yes, it is a test shop'] });

    const result = await interpret(task);

    expect(result.kind === 'runnable' && result.plan.steps.at(-1)).toMatchObject({
      action: 'click',
      target: { by: 'role', role: 'button', name: 'Place order' },
    });
  });

  it.each(['No', 'no — stop before paying', "don't pay", 'Stop before the payment', 'not this time'])(
    'stops before the declined side effect when answered %j',
    async (answer) => {
      const task = taskWithAnswers('Go to /cart, check that the total shows $90, place the order and verify the order through the probe', {
        questions: [question('purchase')],
        answers: [answer],
      });

      const result = await interpret(task);

      expect(actionsOf(result)).toEqual(['navigate', 'expectText']);
    },
  );

  it('opens the start page when a declined side effect is the whole task', async () => {
    const task = taskWithAnswers('Buy the cheapest item with the saved card', { questions: [question('purchase')], answers: ['No'] });

    const result = await interpret(task);

    expect(result.kind === 'runnable' && result.plan.steps).toEqual([{ action: 'navigate', description: 'Go to /', url: '/' }]);
    expect(result.assumptions).toContain('Nothing in the task is left to do in the browser, so the run only opens the start page.');
  });

  it.each<[string, boolean]>([
    ['No', true],
    ['no — stop before paying', true],
    ["Don't send it", true],
    ['yes, but do not pay', true],
    ['Yes, place the order; it is a test store', false],
    ['ok, use the Visa test card', false],
    ['only to qa@example.com', false],
    ['yes, it is demo data', false],
    ['Notify only ops', false],
  ])('reads %j as declining: %s', (answer, declined) => {
    expect(declines(answer)).toBe(declined);
  });

  it('plans what the answer to the vague-task question says to check', async () => {
    const task = taskWithAnswers('test the site', { questions: [VAGUE_QUESTION], answers: ['the pricing page lists three plans'] });

    const result = await interpret(task);

    expect(actionsOf(result)).toEqual(['navigate', 'expectCount']);
  });

  it('asks for a test value the task needs before any side effect runs', async () => {
    const task = taskWithAnswers('type the gift card code into Gift card and place the order', { questions: [question('purchase')], answers: ['yes'] });

    expect(questionsOf(await interpret(task))).toEqual(['Which test value holds the gift card code? Configure it in testValueSecretRefs.']);
  });

  it('keeps the policy assumptions first and adds how it read the task', async () => {
    const result = await interpret('Remove the first item from the cart and check the total');

    expect(result.assumptions.slice(0, 3)).toEqual([
      'Runs against the given baseUrl and the hosts of networkAllowlist only.',
      'Uses the configured test values (demoEmail, demoPassword) where the task needs credentials or inputs; their values are never shown.',
      'Read-only: the run does not create, change or delete stored data, upload or export data, send, invite or publish, buy, pay or transfer money, grant or revoke access, book or schedule, sign up users or submit forms.',
    ]);
    expect(result.assumptions.slice(3)).toEqual([
      'Reads "Remove the first item from the cart" as a click on a "Remove" button.',
      'Reads "check the total" as: the page shows the text "total".',
    ]);
  });
});

describe('planning: every runnable plan fits the plan schema', () => {
  it.each([
    'Check that the pricing page lists three plans',
    'Sign in as the demo user, add the Desk Lamp to the cart and apply the coupon SAVE10',
    'go to /pricing; click the Pro link; make sure the URL contains /pricing; expect 3 plans',
    `go to /pricing and check that the page says "${'x'.repeat(400)}"`,
    'Open the cart and proceed to checkout',
  ])('%j', async (task) => {
    const result = await interpret(task);

    expect(result.kind).toBe('runnable');
    expect(result.kind === 'runnable' && planSchema.safeParse(result.plan).success).toBe(true);
  });

  it('asks to split a task longer than a plan may be', async () => {
    const task = Array.from({ length: 101 }, (_, i) => `click Button ${i}`).join(', ');

    expect(questionsOf(await interpret(task))).toEqual(['The task makes 101 steps, more than the 100 a run may take; which part should this run cover?']);
  });

  it('asks to rephrase a step that is too long to store', async () => {
    expect(questionsOf(await interpret(`check that the page says "${'x'.repeat(600)}"`))).toEqual([
      'Part of the task is too long to plan as written; could you say it in shorter steps?',
    ]);
  });
});
