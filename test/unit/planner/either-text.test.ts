import { describe, expect, it } from '@jest/globals';
import { stepsOf } from './plan-support.js';

describe('a text with alternatives: "either A or B"', () => {
  it.each<[string, string, string[]]>([
    ['Click "Roll". The result should be "Heads" or "Tails".', 'Heads', ['Tails']],
    ['Click "Send" and check that the status says either "Sent" or "Queued for later"', 'Sent', ['Queued for later']],
    ['Click "Pay". The banner should read "Approved" or "Declined".', 'Approved', ['Declined']],
  ])('%j: any one of the texts', (task, text, orText) => {
    expect(stepsOf(task).at(-1)).toEqual({ action: 'expectText', text, orText, criterion: expect.any(String) });
  });

  it('leaves a subject placed on the page ("the message above the heading") to the readers of targets: that element, never the whole page', () => {
    const last = stepsOf('Click "Roll". The message below the button should say either "Heads" or "Tails".').at(-1)!;
    // The texts may be elsewhere on the page (a page that explains its messages): only the element placed there counts.
    expect(last).toEqual({ action: 'expectText', text: 'Heads', orText: ['Tails'], target: { by: 'description', name: 'The message below the button', exact: false }, criterion: expect.any(String) });
  });
});

describe('what has disappeared', () => {
  it.each(['check that "Saving…" has disappeared', 'Make sure "Saving…" has vanished', '"Saving…" disappears', '"Saving…" should be gone'])('%j: the text is hidden', (task) => {
    expect(stepsOf(task)).toEqual([{ action: 'expectState', target: { by: 'text', name: 'Saving…', exact: true }, state: 'hidden', criterion: expect.any(String) }]);
  });
});
