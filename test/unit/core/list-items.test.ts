import { describe, expect, it } from '@jest/globals';
import { itemsMatch, itemsMismatch, matchItems } from '../../../src/core/list-items.js';

const TODOS = ['Buy milk\nDelete', 'Pay  RENT\nDelete', 'Call Ada\nDelete'];
const loose = { only: false, ordered: false };

describe('itemsMatch', () => {
  it('finds each text in an item of its own, case and white space aside', () => {
    expect(itemsMatch(['pay rent', 'buy milk'], TODOS, loose)).toBe(true);
    expect(itemsMatch(['Walk the dog'], TODOS, loose)).toBe(false);
    // Two texts cannot share one item.
    expect(itemsMatch(['Buy', 'milk'], TODOS, loose)).toBe(false);
  });

  it('matches by a maximum matching: a text that fits several items leaves the one another text needs', () => {
    const items = ['Milk chocolate', 'Milk'];
    expect(matchItems(['milk', 'milk chocolate'], items, false)).toEqual([1, 0]);
    expect(itemsMatch(['milk', 'milk chocolate'], items, loose)).toBe(true);
  });

  it('with ordered, holds only when the matched items come in the expected order', () => {
    expect(itemsMatch(['Buy milk', 'Call Ada'], TODOS, { only: false, ordered: true })).toBe(true);
    expect(itemsMatch(['Call Ada', 'Buy milk'], TODOS, { only: false, ordered: true })).toBe(false);
    expect(matchItems(['Milk', 'Milk'], ['Milk', 'Tea', 'Milk'], true)).toEqual([0, 2]);
  });

  it('with only, holds only when no item is left over', () => {
    expect(itemsMatch(['Buy milk', 'Pay rent'], TODOS, { only: true, ordered: false })).toBe(false);
    expect(itemsMatch(['Call Ada', 'Buy milk', 'Pay rent'], TODOS, { only: true, ordered: false })).toBe(true);
    expect(itemsMatch(['Call Ada', 'Buy milk', 'Pay rent'], TODOS, { only: true, ordered: true })).toBe(false);
  });
});

describe('itemsMismatch', () => {
  it('says which texts no item shows, which items are left over, or that the order differs', () => {
    expect(itemsMismatch(['Walk the dog', 'Buy milk'], TODOS, loose)).toBe('no item shows "Walk the dog"');
    expect(itemsMismatch(['Buy milk'], TODOS, { only: true, ordered: false })).toBe('2 other items are shown: "Pay RENT Delete", "Call Ada Delete"');
    expect(itemsMismatch(['Call Ada', 'Buy milk'], TODOS, { only: false, ordered: true })).toBe('the items are not in the expected order');
    expect(itemsMismatch(['Buy milk', 'Call Ada'], TODOS, { only: false, ordered: true })).toBeUndefined();
  });
});
