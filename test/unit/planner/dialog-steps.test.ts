import { describe, expect, it } from '@jest/globals';
import { button, heading, navigate, planFor, stepsOf } from './plan-support.js';

const dialog = (fields: { accept: boolean; text?: string; promptText?: string }) => ({ action: 'dialog', ...fields });

describe('the browser\'s dialogs', () => {
  it.each<[string, ReturnType<typeof dialog>]>([
    ['Click "Save". A browser alert with the text "Saved!" pops up: click OK on it.', dialog({ accept: true, text: 'Saved!' })],
    ['Click "Save". An alert saying "Saved!" should appear; press OK.', dialog({ accept: true, text: 'Saved!' })],
    ['Click "Save". An alert should pop up saying "Saved!". Read the alert and close it with OK.', dialog({ accept: true, text: 'Saved!' })],
    ['Click "Reset". Check that the confirmation box says "Start over?" and press Cancel.', dialog({ accept: false, text: 'Start over?' })],
    ['Click "Reset". Verify the dialog\'s message is "Start over?" and hit OK on the JS confirm.', dialog({ accept: true, text: 'Start over?' })],
    ['Click "Reset" and dismiss the JavaScript confirm.', dialog({ accept: false })],
    ['Click "Name". A prompt should appear saying "Who are you?"; type "Ada" in it and hit OK.', dialog({ accept: true, text: 'Who are you?', promptText: 'Ada' })],
    ['Click "Name". Once the prompt "Who are you?" shows up, decline it without entering a name.', dialog({ accept: false, text: 'Who are you?' })],
    ['Press "Name". When the prompt box comes up, answer it with "Grace".', dialog({ accept: true, promptText: 'Grace' })],
  ])('%j: the click, then one dialog step answered as said', (task, expected) => {
    const steps = stepsOf(task);
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ action: 'click' });
    expect(steps[1]).toEqual(expected.text === undefined ? expected : { ...expected, criterion: expect.any(String) });
  });

  it('says how the dialog is answered in the step\'s description, and checks its text as a criterion', () => {
    const plan = planFor('Click "Name". The prompt should read "Who are you?"; type "Ada" into it and press OK.');
    expect(plan.steps[1]!.description).toBe('Expect a dialog saying "Who are you?", then type "Ada" and press OK');
    expect(plan.successCriteria).toEqual([{ key: (plan.steps[1] as { criterion: string }).criterion, description: 'The prompt should read "Who are you?"' }]);
  });

  it('reads two dialogs from one click, each with its own answer', () => {
    expect(stepsOf('Click "Twice". Press OK on the first alert, then press Cancel on the second alert.')).toEqual([
      { action: 'click', target: button('Twice', true) },
      dialog({ accept: true }),
      dialog({ accept: false }),
    ]);
  });

  it('goes on with the page after the dialog: "the result should then read …"', () => {
    expect(stepsOf('Click "Save". A JS alert saying "Saved!" appears; accept it. The status should then read "All saved".').at(-1)).toMatchObject({ action: 'expectText', text: 'All saved' });
  });

  it('leaves an alert that nothing says is the browser\'s to the page (a banner with role alert)', () => {
    expect(stepsOf('Click "Save". The alert should say "Saved"; close it.')).toEqual([
      { action: 'click', target: button('Save', true) },
      expect.objectContaining({ action: 'expectText', text: 'Saved' }),
      { action: 'click', target: button('Close') },
    ]);
    // And "press OK" with no dialog before it is a button of the page.
    expect(stepsOf('Type "x" into the Name field and press OK')).toEqual([expect.objectContaining({ action: 'fill' }), { action: 'click', target: button('OK') }]);
  });
});

describe('pages named in title case', () => {
  it('reads "On Order History, …" and "open Order History" as that page, "open Order history" as a link', () => {
    expect(stepsOf('On Order History, click "Reorder"')[0]).toEqual({ ...navigate('/order-history'), page: 'Order History' });
    expect(stepsOf('Open Account Settings and check the heading says "Settings"')).toEqual([
      { ...navigate('/account-settings'), page: 'Account Settings' },
      { action: 'expectText', text: 'Settings', role: 'heading', criterion: expect.any(String) },
    ]);
    expect(stepsOf('open Order history')).toEqual([{ action: 'click', target: { by: 'role', role: 'link', name: 'Order history', exact: false } }]);
    expect(stepsOf('open the Reports menu')).toEqual([{ action: 'click', target: button('Reports') }]);
    void heading;
  });
});

describe('right clicks', () => {
  it('reads a right click on an element, and one only a look names as a description found by that look', () => {
    expect(stepsOf('Right-click the "Quarterly report" link')).toEqual([{ action: 'rightClick', target: { by: 'role', role: 'link', name: 'Quarterly report', exact: true } }]);
    expect(stepsOf('context-click somewhere in the grey area')).toEqual([{ action: 'rightClick', target: { by: 'description', name: 'the grey area', exact: false } }]);
    expect(stepsOf('Open the context menu of the dotted square, then accept the JS alert')).toEqual([
      { action: 'rightClick', target: { by: 'description', name: 'the dotted square', exact: false } },
      { action: 'dialog', accept: true },
    ]);
  });
});
