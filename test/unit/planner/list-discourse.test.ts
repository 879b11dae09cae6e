/**
 * How a task about a list goes on from sentence to sentence: what "it" and "that item" mean after an action or an
 * edit, a statement after a colon, a place added to an assertion ("…, on screen and in local storage"), several
 * subjects or several states in one breath, the contrast "…, only the edit box", and what is left after a removal.
 * The sentences are not the corpus's: the readings are meant for any list app.
 */
import { describe, expect, it } from '@jest/globals';
import type { PlanStep } from '../../../src/core/plan.js';
import { taskWithAnswers } from '../../../src/core/interpretation.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { findSideEffects } from '../../../src/planner/side-effects.js';

const planner = createRulePlanner();

async function planOf(task: string): Promise<{ steps: PlanStep[]; assumptions: string[] }> {
  const result = await planner.interpret(task, { testValueNames: [], evidenceCriteria: [] });
  if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);
  return { steps: result.plan.steps, assumptions: result.assumptions };
}
const stepsOf = async (task: string) => (await planOf(task)).steps;
/** The steps after the items were added (a fill and an Enter each). */
const after = async (task: string, added: number) => (await stepsOf(task)).slice(added * 2);
const checkboxOf = (text: string) => ({ by: 'role', role: 'checkbox', name: '', exact: false, within: { text } });

describe('a statement after a colon', () => {
  it('splits after a list noun when a modal statement follows ("untick the second task: the box should …")', async () => {
    expect(await after("Add the tasks 'milk' and 'eggs'. Tick 'Select all', then untick the second task: the 'Select all' box should no longer be ticked.", 2)).toMatchObject([
      { action: 'check', target: { by: 'label', name: 'Select all' }, checked: true },
      { action: 'check', target: checkboxOf('eggs'), checked: false },
      { action: 'expectState', target: { by: 'label', name: 'Select all' }, state: 'unchecked' },
    ]);
  });

  it('keeps a list heading whole ("add three notes: …")', async () => {
    expect((await stepsOf("Add three notes: 'a', 'b' and 'c'")).filter((step) => step.action === 'fill')).toHaveLength(3);
  });

  it('reads a summary before the colon as said by what follows, asking nothing', async () => {
    const { steps, assumptions } = await planOf("Add the notes 'a' and 'b'. The rename should stick: the list should show 'a' and 'b'.");
    expect(steps.at(-1)).toMatchObject({ action: 'expectItems', texts: ['a', 'b'], only: true });
    expect(assumptions).toContain('Reads "The rename should stick" as said by what follows its colon: no step of its own.');
  });
});

describe('lists and the clause after them', () => {
  it('reads the longest list run, then the clause that follows it after a comma and "and"', async () => {
    expect(await stepsOf("Check that the list shows 'milk', 'eggs' and 'bread', and 'eggs' should be in local storage")).toMatchObject([
      { action: 'expectItems', texts: ['milk', 'eggs', 'bread'], only: true, ordered: true },
      { action: 'expectStorage', texts: ['eggs'] },
    ]);
  });

  it('reads one predicate said of several subjects as that predicate of each', async () => {
    expect(await stepsOf('Open /settings. The Save button and the Cancel link should be visible.')).toMatchObject([
      { action: 'navigate' },
      { action: 'expectState', target: { role: 'button', name: 'Save' }, state: 'visible' },
      { action: 'expectState', target: { role: 'link', name: 'Cancel' }, state: 'visible' },
    ]);
  });
});

describe('what "it" means', () => {
  it('is the element just acted on when that is no item ("tick Select all and verify that it is ticked")', async () => {
    expect((await after("Add the tasks 'milk' and 'eggs', tick 'Select all' and verify that it is ticked", 2)).at(-1)).toMatchObject({
      action: 'expectState',
      target: { by: 'label', name: 'Select all' },
      state: 'checked',
    });
  });

  it('is the one item an "only it" statement is about, though every item is checked', async () => {
    expect(await after("Add the notes 'rent' and 'gas'. Mark the first one as done and confirm that only it is done. Then untick it again.", 2)).toMatchObject([
      { action: 'check', target: checkboxOf('rent'), checked: true },
      { action: 'expectState', target: checkboxOf('rent'), state: 'checked' },
      { action: 'expectState', target: checkboxOf('gas'), state: 'unchecked' },
      { action: 'check', target: checkboxOf('rent'), checked: false },
    ]);
  });

  it('is the item as edited: its new text is what "the new title" and "both" mean', async () => {
    const steps = await after("Add the tasks 'a' and 'b'. Double-click 'b', replace the text with 'c' and press Enter. The new title should be saved in local storage, and both should be shown.", 2);
    expect(steps.slice(-2)).toMatchObject([
      { action: 'expectStorage', texts: ['c'] },
      { action: 'expectItems', texts: ['a', 'c'] },
    ]);
  });

  it('becomes the highlighted tab: the element clicked is selected', async () => {
    expect(await stepsOf("Click 'Starred' and check that it becomes the highlighted tab, then click 'Inbox' and check that it is highlighted in turn")).toMatchObject([
      { action: 'click', target: { name: 'Starred' } },
      { action: 'expectState', target: { name: 'Starred' }, state: 'selected' },
      { action: 'click', target: { name: 'Inbox' } },
      { action: 'expectState', target: { name: 'Inbox' }, state: 'selected' },
    ]);
  });
});

describe('places, contrasts, removals and several states', () => {
  it('checks an assertion again in the place a trailing phrase names ("…, on screen and in local storage")', async () => {
    const { steps, assumptions } = await planOf("Add the notes 'rent' and 'gas', complete 'rent', then uncheck it and confirm that neither note is completed, on screen and in local storage");
    expect(steps.slice(-3)).toMatchObject([
      { action: 'expectState', target: checkboxOf('rent'), state: 'unchecked' },
      { action: 'expectState', target: checkboxOf('gas'), state: 'unchecked' },
      { action: 'expectStorage', count: 0, where: 'completed' },
    ]);
    expect(assumptions.some((assumption) => assumption.startsWith('Reads "on screen" as where'))).toBe(true);
  });

  it('reads the parts of an item, "while …" as a condition, and "only the edit box" as the opposite state', async () => {
    const { steps, assumptions } = await planOf("Add the tasks 'a' and 'b', then double-click 'b'. While it is being changed, its checkbox and its label should be hidden, only the edit box.");
    expect(steps.slice(-3)).toMatchObject([
      { action: 'expectState', target: checkboxOf('b'), state: 'hidden' },
      { action: 'expectState', target: { by: 'text', name: 'b', exact: true }, state: 'hidden' },
      { action: 'expectState', target: { by: 'description', role: 'textbox', name: 'edit' }, state: 'visible' },
    ]);
    expect(assumptions).toContain('Reads "while it is being changed" as when the checks after it apply: no step of its own.');
  });

  it('reads a removed item as gone and "leaving only …" as all the list shows', async () => {
    // "should be removed" asks about deleting data first; the answer lets it go on.
    const task = "Add 'x', 'y' and 'z', double-click 'y', clear its text and press Enter. That item should be removed, leaving only 'x' and 'z'.";
    const asked = await planner.interpret(task, { testValueNames: [], evidenceCriteria: [] });
    if (asked.kind !== 'needs_clarification') throw new Error('expected the delete question');
    const answered = taskWithAnswers(task, { questions: asked.questions, answers: ['Yes, it is test data.'] });
    expect((await stepsOf(answered)).slice(6)).toMatchObject([
      { action: 'dblclick' },
      { action: 'clear' },
      { action: 'press', key: 'Enter' },
      { action: 'expectState', target: { by: 'text', name: 'y', exact: true }, state: 'hidden' },
      { action: 'expectItems', texts: ['x', 'z'], only: true },
    ]);
  });

  it('reads several states in one breath, each on its item ("with \'x\' done and \'y\' not", "checked and completed")', async () => {
    const steps = await after("Add the tasks 'x' and 'y' and tick 'x'. Check that the list shows both, with 'x' ticked and done and 'y' not. Then reload the page and check that 'x' is still checked and completed.", 2);
    expect(steps.slice(1)).toMatchObject([
      { action: 'expectItems', texts: ['x', 'y'] },
      { action: 'expectState', target: checkboxOf('x'), state: 'checked' },
      { action: 'expectState', target: checkboxOf('y'), state: 'unchecked' },
      { action: 'reload' },
      { action: 'expectState', target: checkboxOf('x'), state: 'checked' },
    ]);
  });

  it('counts the items a view lists ("where only 1 note should be listed", "it lists just two notes", "it shows all 3 again")', async () => {
    const steps = await after("Add the notes 'a', 'b' and 'c'. Click 'Done', where only 1 note should be listed. Click 'Open': it lists just two notes. Click 'Everything' and check that it shows all 3 again.", 3);
    const list = { by: 'role', role: 'list', name: '', exact: false };
    expect(steps).toMatchObject([
      { action: 'click', target: { name: 'Done' } },
      { action: 'expectCount', target: list, itemRole: 'listitem', count: 1 },
      { action: 'click', target: { name: 'Open' } },
      { action: 'expectCount', target: list, itemRole: 'listitem', count: 2 },
      { action: 'click', target: { name: 'Everything' } },
      { action: 'expectItems', texts: ['a', 'b', 'c'], only: true },
    ]);
    expect(steps[1]).not.toHaveProperty('target.within');
  });

  it('does not read a clause after "where" as one more subject of its predicate', async () => {
    expect(await after("Add the notes 'a' and 'b', then click 'Open', and then 'Done', where only 1 note should be listed", 2)).toMatchObject([
      { action: 'click', target: { name: 'Open' } },
      { action: 'click', target: { name: 'Done' } },
      { action: 'expectCount', count: 1 },
    ]);
  });

  it('does not take deleting a field\'s text for deleting data', () => {
    expect(findSideEffects("Double-click the note, delete all of its text and press Enter")).toEqual([]);
    expect(findSideEffects('delete the text messages').map((hit) => hit.kind)).toEqual(['delete']);
  });
});
