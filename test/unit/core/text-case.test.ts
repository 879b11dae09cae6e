import { describe, expect, it } from '@jest/globals';
import { addressNamesPage } from '../../../src/core/page-address.js';
import { caseMatters, holdsWithCase } from '../../../src/core/text-case.js';

describe('the case of an expected text', () => {
  it('matters only when the text mixes cases', () => {
    expect(caseMatters('Order placed: Blue Mug')).toBe(true);
    expect(caseMatters('order placed')).toBe(false);
    expect(caseMatters('SAVED')).toBe(false);
    expect(caseMatters('42 €')).toBe(false);
  });

  it('is held by the page\'s own text letter for letter, white space aside', () => {
    expect(holdsWithCase('Thanks!\n  Order placed:   Blue Mug', 'Order placed: Blue Mug')).toBe(true);
    expect(holdsWithCase('Order placed: BLUE MUG', 'Order placed: Blue Mug')).toBe(false);
    expect(holdsWithCase('ORDER PLACED', 'order placed')).toBe(true);
  });
});

describe('an address that names the page asked for', () => {
  it.each<[string, string, boolean]>([
    ['http://shop.test/form_validation/3', 'Form Validation example 3', true],
    ['http://shop.test/form-validation/2', 'Form Validation example 3', false],
    ['http://shop.test/demos/sortable-lists/3?x=1', 'Sortable Lists demo 3', true],
    ['http://shop.test/3', 'example 3', false],
    ['http://shop.test/checkout', 'Checkout', true],
    ['http://shop.test/cart', 'Checkout', false],
  ])('%s names %j: %s', (url, name, named) => {
    expect(addressNamesPage(url, name)).toBe(named);
  });
});
