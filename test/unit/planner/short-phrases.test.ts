/**
 * Short ways of referring back to what a task did (issue 25), with wording and apps other than the corpus's: a
 * choice in a select list and "it's the one selected", "only one is left", "click X once more", "the first X
 * button", and a list of keys one a line with the checks after each.
 */
import { describe, expect, it } from '@jest/globals';
import { expandKeyLists } from '../../../src/planner/key-lists.js';
import { literal, stepsOf } from './plan-support.js';

const sizes = { by: 'description', role: 'combobox', name: 'drop-down menu', exact: false } as const;
const button = (name: string, nth?: number) => ({ by: 'role', role: 'button', name, exact: false, ...(nth === undefined ? {} : { nth }) }) as const;

describe('a choice in a select list, and what it shows', () => {
  it('reads "choose X from the drop-down menu", "it is the selected one" and a next choice in the same list', () => {
    expect(stepsOf('Choose "Large" from the drop-down menu and verify that it is the selected one. Then choose "Small" and check that Small is now the chosen value.')).toEqual([
      { action: 'select', target: sizes, value: literal('Large') },
      { action: 'expectValue', target: sizes, text: 'Large', criterion: expect.any(String) },
      { action: 'select', target: sizes, value: literal('Small') },
      { action: 'expectValue', target: sizes, text: 'Small', criterion: expect.any(String) },
    ]);
  });

  it('does not read a name the task never chose as the selected value', () => {
    const steps = stepsOf('Pick "Large" from the dropdown and check that Medium is the selected option');
    expect(steps.filter((step) => step.action === 'expectValue')).toEqual([]);
  });
});

describe('counting again what was counted', () => {
  it('reads "only one is left" and "none remain" as counts of the last thing counted, and "once more" as the same click', () => {
    expect(stepsOf('Click "New row", click it again and check that there are now two Remove buttons. Click the first Remove button and check only one is left. Click Remove once more and make sure none remain.')).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'New row', exact: true } },
      { action: 'click', target: { by: 'role', role: 'button', name: 'New row', exact: true } },
      expect.objectContaining({ action: 'expectCount', target: button('Remove'), count: 2 }),
      { action: 'click', target: button('Remove', 1) },
      expect.objectContaining({ action: 'expectCount', target: button('Remove'), count: 1 }),
      { action: 'click', target: button('Remove') },
      expect.objectContaining({ action: 'expectCount', target: button('Remove'), count: 0 }),
    ]);
  });

  it('does not count the control clicked for "one is left" when nothing was counted before', () => {
    expect(stepsOf('Click Remove and check that one is left').some((step) => step.action === 'expectCount' && step.target.name === 'Remove')).toBe(false);
  });
});

describe('a list of keys, one a line with its checks', () => {
  const task = ['Focus the search box. Press the following keys in turn:', '- x: "Typed x"', '- the up arrow: it should say "Moved up"', '- Email: "not a key"'].join('\n');

  it('writes each line out as a key pressed, then its checks; a line that names no key stays as written', () => {
    expect(expandKeyLists(task).split('\n')).toEqual(['Focus the search box.', 'Press the x key. Check that the page shows "Typed x".', 'Press the up arrow key. it should say "Moved up".', '- Email: "not a key"']);
  });

  it('plans the keys and the texts after each', () => {
    expect(stepsOf(['Click into the text box. Press these keys one after the other:', '- Q: "You typed Q"', '- Escape: "You typed ESCAPE", and the box should be empty now'].join('\n'))).toEqual([
      expect.objectContaining({ action: 'click' }),
      { action: 'press', key: 'Q' },
      expect.objectContaining({ action: 'expectText', text: 'You typed Q' }),
      { action: 'press', key: 'Escape' },
      expect.objectContaining({ action: 'expectText', text: 'You typed ESCAPE' }),
      expect.objectContaining({ action: 'expectValue', text: '' }),
    ]);
  });

  it('leaves a task without such a list unchanged', () => {
    expect(expandKeyLists('Press Enter.\n- then check "x": shown')).toBe('Press Enter.\n- then check "x": shown');
  });
});

describe('a control in a row of a named table', () => {
  it('reads the row by the text it shows and the table by its name', () => {
    expect(stepsOf("Click 'remove' in Grace's row of the Archive table, then press Open in the row of Ada in the table named \"Current\"")).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'remove', exact: true, within: { text: 'Grace', table: 'Archive' } } },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Open', exact: false, within: { text: 'Ada', table: 'Current' } } },
    ]);
  });

  it('reads a possessive row without a table as that row', () => {
    expect(stepsOf("Click View in INV-7's row")).toEqual([{ action: 'click', target: { by: 'role', role: 'button', name: 'View', exact: false, within: { text: 'INV-7' } } }]);
  });
});
