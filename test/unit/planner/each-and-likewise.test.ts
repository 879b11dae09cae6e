/**
 * One action on each of several in turn, a state said again of another subject, and a busy while-clause (issue 25),
 * with wording and apps other than the corpus's.
 */
import { describe, expect, it } from '@jest/globals';
import { expandEachInTurn, expandEachToAddress } from '../../../src/planner/each-in-turn.js';
import { planOf, stepsOf } from './plan-support.js';

describe('each of several in turn, with what each shows', () => {
  it('writes one sentence per element, counted from the first', () => {
    expect(expandEachInTurn("Click each of the two tabs in turn and check the panel below: the first should show 'Specs' and the second 'Reviews'.")).toBe(
      "Click the first tab, then check that the page shows 'Specs'. Click the second tab, then check that the page shows 'Reviews'.",
    );
  });

  it('plans a hover on each picture by its place and the text it reveals', () => {
    expect(stepsOf('Hover over each of the three product photos in turn and check the price label that appears: the first says "$5", the second "$7" and the third "$9".')).toEqual([
      { action: 'hover', target: { by: 'role', role: 'img', name: 'product', exact: false, nth: 1 } },
      expect.objectContaining({ action: 'expectText', text: '$5' }),
      { action: 'hover', target: { by: 'role', role: 'img', name: 'product', exact: false, nth: 2 } },
      expect.objectContaining({ action: 'expectText', text: '$7' }),
      { action: 'hover', target: { by: 'role', role: 'img', name: 'product', exact: false, nth: 3 } },
      expect.objectContaining({ action: 'expectText', text: '$9' }),
    ]);
  });

  it('leaves the sentence as written when the list does not count them all from the first', () => {
    const task = "Click each of the three tabs in turn and check the panel: the first should show 'A' and the third 'C'.";
    expect(expandEachInTurn(task)).toBe(task);
  });
});

describe('a state said again of another subject, and a busy while-clause', () => {
  it('reads "and so should the toggle" as the same state of that element, and "the toggle should be visible again"', () => {
    expect(stepsOf('Press Hide. The banner text should be hidden and so should the toggle. Press Show: the toggle should be visible again.')).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'Hide', exact: false } },
      expect.objectContaining({ action: 'expectState', state: 'hidden' }),
      expect.objectContaining({ action: 'expectState', target: { by: 'role', role: 'switch', name: '', exact: false }, state: 'hidden' }),
      { action: 'click', target: { by: 'role', role: 'button', name: 'Show', exact: false } },
      expect.objectContaining({ action: 'expectState', target: { by: 'role', role: 'switch', name: '', exact: false }, state: 'visible' }),
    ]);
  });

  it('reads "\'Saving…\' should show while it works" as the text appearing, the while-clause as a remark', () => {
    const result = planOf('Press Save. "Saving…" should show while it works, then "Saved" should disappear again.');
    if (result.kind !== 'plan') throw new Error(JSON.stringify(result));
    expect(result.plan.steps.map(({ description: _description, ...step }) => step)).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'Save', exact: false } },
      expect.objectContaining({ action: 'expectState', target: { by: 'text', name: 'Saving…', exact: true }, state: 'visible' }),
      expect.objectContaining({ action: 'expectState', target: { by: 'text', name: 'Saved', exact: true }, state: 'hidden' }),
    ]);
    expect(result.assumptions).toContain('Reads "while it works" as when the check before it applies: no step of its own.');
  });
});

describe('each of several links in turn, each to its own address', () => {
  it('clicks each name listed, checks its address, and goes back after each when asked', () => {
    expect(stepsOf('Click each of the footer links in turn (Blog, Jobs and Help) and check that each one takes you to its own page: Blog to /blog, Jobs to /careers/ and Help to /support. Go back to the home page after each one.')).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'Blog', exact: true } },
      expect.objectContaining({ action: 'expectUrl', contains: '/blog' }),
      { action: 'goBack' },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Jobs', exact: true } },
      expect.objectContaining({ action: 'expectUrl', contains: '/careers/' }),
      { action: 'goBack' },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Help', exact: true } },
      expect.objectContaining({ action: 'expectUrl', contains: '/support' }),
      { action: 'goBack' },
    ]);
  });

  it('leaves the sentence as written when a name has no address', () => {
    const task = 'Click each of the tabs in turn (One, Two and Three) and check that each one takes you to its own address: One to /1 and Two to /2.';
    expect(expandEachToAddress(task)).toBe(task);
  });
});
