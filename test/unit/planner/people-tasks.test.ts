import { describe, expect, it } from '@jest/globals';
import type { PlanStep } from '../../../src/core/plan.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';

const planner = createRulePlanner();

async function stepsOf(task: string): Promise<PlanStep[]> {
  const result = await planner.interpret(task, { testValueNames: [], evidenceCriteria: [] });
  if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);
  return result.plan.steps;
}

const newItem = (kind: string) => ({ by: 'description', role: 'textbox', name: `new ${kind}`, exact: false });
const checkboxOf = (text: string) => ({ by: 'role', role: 'checkbox', name: '', exact: false, within: { text } });

describe('tasks as people write them about list apps', () => {
  it('adds every item of a list, each typed into the field for new items and entered', async () => {
    const steps = await stepsOf("Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment'");
    expect(steps.map((step) => step.action)).toEqual(['fill', 'press', 'fill', 'press', 'fill', 'press']);
    expect(steps[2]).toMatchObject({ target: newItem('todo'), value: { kind: 'literal', text: 'feed the cat' } });
    expect(steps[5]).toMatchObject({ key: 'Enter' });
  });

  it('keeps a quoted value\'s spaces and reads "create a note called X"', async () => {
    expect((await stepsOf("create a note called '  two  spaces '"))[0]).toMatchObject({ target: newItem('note'), value: { text: '  two  spaces ' } });
  });

  it('refers back: "the second one", "it", "both"', async () => {
    const steps = await stepsOf("Add the todos 'a' and 'b', then mark the second one as completed, and check that both are completed and that it is still there");
    expect(steps.slice(4)).toMatchObject([
      { action: 'check', target: checkboxOf('b'), checked: true },
      { action: 'expectState', target: checkboxOf('a'), state: 'checked' },
      { action: 'expectState', target: checkboxOf('b'), state: 'checked' },
      { action: 'expectItems', texts: ['b'], only: false },
    ]);
  });

  it('ticks and unticks by row: "the checkbox of X", "X\'s checkbox", "mark X as active"', async () => {
    expect(await stepsOf("tick the checkbox of 'Pay rent' and mark 'Pay rent' as active")).toMatchObject([
      { action: 'check', target: checkboxOf('Pay rent'), checked: true },
      { action: 'check', target: checkboxOf('Pay rent'), checked: false },
    ]);
  });

  it('an item the task did not name is found by its position on the page', async () => {
    expect((await stepsOf('mark the first todo as complete'))[0]).toMatchObject({ action: 'check', target: { role: 'checkbox', nth: 1 } });
  });

  it('reads list contents: the whole list in order, or items among others', async () => {
    const [whole] = await stepsOf("Add 'a', 'b' and 'c', then check that the list shows 'a', 'b' and 'c'").then((steps) => steps.slice(6));
    expect(whole).toMatchObject({ action: 'expectItems', texts: ['a', 'b', 'c'], only: true, ordered: true });
    const [some] = await stepsOf("check that 'a' and 'c' are shown");
    expect(some).toMatchObject({ action: 'expectItems', texts: ['a', 'c'], only: false, ordered: false });
    const [only] = await stepsOf("verify that only 'a' and 'c' are listed");
    expect(only).toMatchObject({ action: 'expectItems', only: true });
  });

  it('splits clauses at a verb, not inside a list: "type X and press Enter, then …"', async () => {
    const steps = await stepsOf("type 'buy milk' and press Enter, then type 'feed the cat' and press Enter");
    expect(steps.map((step) => step.action)).toEqual(['fill', 'press', 'fill', 'press']);
    expect(steps[2]).toMatchObject({ target: { role: 'textbox', name: '' }, value: { text: 'feed the cat' } });
  });

  it('plans the actions people use: double-click, change it, hover, reload, back and forward, click outside', async () => {
    const steps = await stepsOf("Add the todo 'a', double-click it and change it to 'b', click outside, hover over 'b', reload the page, go back and go forward");
    expect(steps.map((step) => step.action)).toEqual(['fill', 'press', 'dblclick', 'fill', 'press', 'hover', 'reload', 'goBack', 'goForward']);
    expect(steps[2]).toMatchObject({ target: { by: 'text', name: 'a', exact: true } });
    expect(steps[4]).toMatchObject({ key: 'Tab' });
  });

  it('uploads a named file and drags onto a target, and still asks about a drag to a value', async () => {
    expect(await stepsOf("upload 'report.pdf' to the Attachment field and drag 'Card A' onto 'Done'")).toMatchObject([
      { action: 'upload', fileName: 'report.pdf', target: { by: 'label', name: 'Attachment' } },
      { action: 'dragTo', target: { name: 'Card A' }, to: { name: 'Done' } },
    ]);
    const asked = await planner.interpret('drag the slider to 50%', { testValueNames: [], evidenceCriteria: [] });
    expect(asked.kind).toBe('needs_clarification');
  });

  it('leaves the shop\'s phrasings as they were: a cart is not a list of items to type', async () => {
    expect(await stepsOf('add the Desk Lamp and the Blue Mug to the cart')).toMatchObject([
      { action: 'click', target: { role: 'button', name: 'Add to cart', within: { text: 'Desk Lamp' } } },
      { action: 'click', target: { role: 'button', name: 'Add to cart', within: { text: 'Blue Mug' } } },
    ]);
  });
});

describe('answers to "what should I do there?"', () => {
  const question = (clause: string) => `I could not turn "${clause}" into a browser step; what should I do there?`;
  const answered = (task: string, clause: string, answer: string) => `${task}\n\nClarifications:\nQ1: ${question(clause)}\nA1: ${answer}`;

  it('reads consent as: what the clause quotes is what the page must show', async () => {
    const task = "click 'Go'; the banner should then glow 'Done!'";
    const steps = await stepsOf(answered(task, "the banner should then glow 'Done!'", 'Yes, go ahead.'));
    expect(steps.at(-1)).toMatchObject({ action: 'expectText', text: 'Done!' });
  });

  it('reads consent to a remark with nothing to check as leaving it out, and says so', async () => {
    const result = await planner.interpret(answered('go to /pricing and frobnicate the widget', 'frobnicate the widget', 'Yes, go ahead'), { testValueNames: [], evidenceCriteria: [] });
    expect(result.kind === 'runnable' && result.plan.steps.map((step) => step.action)).toEqual(['navigate']);
    expect(result.assumptions.join(' ')).toContain('Leaves out "frobnicate the widget"');
  });

  it('reads what follows the consent as the step ("yes, click the Pro link")', async () => {
    const steps = await stepsOf(answered('go to /pricing and frobnicate the widget', 'frobnicate the widget', 'Yes, click the Pro link'));
    expect(steps.at(-1)).toMatchObject({ action: 'click', target: { role: 'link', name: 'Pro' } });
  });

  it('asks at most ten questions in a round, the first ones of the task', async () => {
    const task = Array.from({ length: 14 }, (_, n) => `frobnicate widget ${n}`).join('. ');
    const result = await planner.interpret(task, { testValueNames: [], evidenceCriteria: [] });
    expect(result.kind === 'needs_clarification' && result.questions).toHaveLength(10);
    expect(result.kind === 'needs_clarification' && result.questions[0]).toBe(question('frobnicate widget 0'));
  });
});

describe('what a page keeps in local storage, as people say it', () => {
  it('counts entries, with a state word as the property they have set', async () => {
    const steps = await stepsOf("Add the todos 'a', 'b' and 'c', tick the first one, and check that one completed todo is saved in local storage, with all 3 saved in local storage");
    expect(steps.filter((step) => step.action === 'expectStorage')).toMatchObject([
      { count: 1, where: 'completed', texts: [] },
      { count: 3, texts: [] },
    ]);
  });

  it('reads stored texts, the key the task names, and "there should be N todos stored"', async () => {
    const steps = await stepsOf("Add the todo 'a'. It should be saved in local storage as exactly 'a' (the app keeps them under 'react-todos'), so there should be 1 todo stored");
    expect(steps.filter((step) => step.action === 'expectStorage')).toMatchObject([{ texts: ['a'] }, { count: 1 }]);
  });
});

describe('clauses that are no step', () => {
  it('reads an example or a reason as a remark: "e.g. by clicking somewhere else", "now that nothing is completed"', async () => {
    const steps = await stepsOf("Add the todo 'a', then leave the field, e.g. by clicking somewhere else. Now that nothing is completed, check that 'a' is shown");
    expect(steps.map((step) => step.action)).toEqual(['fill', 'press', 'press', 'expectState']);
  });

  it('keeps values in parentheses and drops a remark in them', async () => {
    const steps = await stepsOf("Add three todos ('a', 'b', 'c') and type '  x  ' (two spaces before and after) into the new todo field");
    expect(steps.map((step) => (step.action === 'fill' && step.value.kind === 'literal' ? step.value.text : step.action))).toEqual(['a', 'press', 'b', 'press', 'c', 'press', '  x  ']);
  });
});

describe('states said of items the way people say them', () => {
  it('reads "it\'s … while the second one isn\'t", "only X is completed", "in the order I added them"', async () => {
    const steps = await stepsOf("Add two todos, 'a' and 'b'. Tick the first one and check that it's marked as completed while the second one isn't. Check that only 'a' is completed and that the list shows the two todos in the order I added them");
    expect(steps.slice(4)).toMatchObject([
      { action: 'check', target: checkboxOf('a') },
      { action: 'expectState', target: checkboxOf('a'), state: 'checked' },
      { action: 'expectState', target: checkboxOf('b'), state: 'unchecked' },
      { action: 'expectState', target: checkboxOf('a'), state: 'checked' },
      { action: 'expectState', target: checkboxOf('b'), state: 'unchecked' },
      { action: 'expectItems', texts: ['a', 'b'], only: true, ordered: true },
    ]);
  });

  it('reads "the edit box should contain X" as the field\'s value, and "all three are saved as completed" as storage', async () => {
    const steps = await stepsOf("Add the todos 'a', 'b' and 'c' and tick each of them. All three should be saved as completed. Double-click 'a'; the edit box should contain 'a'");
    expect(steps.filter((step) => step.action === 'expectStorage' || step.action === 'expectValue')).toMatchObject([
      { action: 'expectStorage', count: 3, where: 'completed' },
      { action: 'expectValue', target: { by: 'description', role: 'textbox' }, text: 'a' },
    ]);
  });
});

describe('"it" as the element the task just acted on', () => {
  it('checks its state and clicks it again', async () => {
    const steps = await stepsOf("tick 'Remember me' and check that it is ticked, then click 'Add Element', check that one Delete button appears, and click it again");
    expect(steps).toMatchObject([
      { action: 'check', target: { name: 'Remember me' } },
      { action: 'expectState', target: { name: 'Remember me' }, state: 'checked' },
      { action: 'click', target: { name: 'Add Element' } },
      { action: 'expectCount', target: { role: 'button', name: 'Delete' }, count: 1 },
      { action: 'click', target: { name: 'Add Element' } },
    ]);
  });
});
