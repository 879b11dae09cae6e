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

  it('leaves a subject placed on the page ("the message above the heading") to the readers of targets', () => {
    const last = stepsOf('Click "Roll". The message below the button should say either "Heads" or "Tails".').at(-1)!;
    expect(last).not.toHaveProperty('orText');
  });
});

describe('what has disappeared', () => {
  it.each(['check that "Saving…" has disappeared', 'Make sure "Saving…" has vanished', '"Saving…" disappears', '"Saving…" should be gone'])('%j: the text is hidden', (task) => {
    expect(stepsOf(task)).toEqual([{ action: 'expectState', target: { by: 'text', name: 'Saving…', exact: true }, state: 'hidden', criterion: expect.any(String) }]);
  });
});
