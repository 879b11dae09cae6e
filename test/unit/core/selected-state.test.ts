import { describe, expect, it } from '@jest/globals';
import { isSelectedBy, type SelectionFacts } from '../../../src/core/selected-state.js';

const none: SelectionFacts = { ariaSelected: null, ariaCurrent: null, ariaPressed: null, className: null, checked: false };

describe('isSelectedBy', () => {
  it.each<[string, Partial<SelectionFacts>]>([
    ['a selected tab', { ariaSelected: 'true' }],
    ['the current page link', { ariaCurrent: 'page' }],
    ['aria-current="true"', { ariaCurrent: 'true' }],
    ['a pressed toggle button', { ariaPressed: 'true' }],
    ['a checked radio or a selected option', { checked: true }],
    ['a filter link styled "selected"', { className: 'filter selected' }],
    ['an "is-active" tab', { className: 'tab  is-active' }],
  ])('is true for %s', (_what, facts) => {
    expect(isSelectedBy({ ...none, ...facts })).toBe(true);
  });

  it.each<[string, Partial<SelectionFacts>]>([
    ['nothing', {}],
    ['aria-selected="false"', { ariaSelected: 'false' }],
    ['aria-current="false"', { ariaCurrent: 'false' }],
    ['aria-pressed="mixed"', { ariaPressed: 'mixed' }],
    ['a class that only contains the word', { className: 'unselected inactive recurrent' }],
  ])('is false for %s', (_what, facts) => {
    expect(isSelectedBy({ ...none, ...facts })).toBe(false);
  });
});
