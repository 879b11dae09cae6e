import { describe, expect, it } from '@jest/globals';
import { matchOutsideQuotes, maskQuotes, numberOf, slugKey, stripDeterminers, wordsOf } from '../../../src/planner/words.js';

describe('wordsOf', () => {
  it.each<[string, string[]]>([
    ['demoPassword', ['demo', 'password']],
    ['demo_user_email', ['demo', 'user', 'email']],
    ['DEMO-PASSWORD', ['demo', 'password']],
    ['the demo e-mail', ['the', 'demo', 'email']],
    ['APIToken', ['api', 'token']],
    ['demo pwd', ['demo', 'password']],
    ['user name', ['username']],
    ['coupon codes', ['coupon', 'code']],
  ])('%j → %j', (text, words) => {
    expect(wordsOf(text)).toEqual(words);
  });
});

describe('slugKey', () => {
  it.each<[string, string]>([
    ['the total shows $90', 'total_shows_90'],
    ['the page says "Order confirmed"', 'page_says_order_confirmed'],
    ["last month's invoices are listed", 'last_months_invoices_listed'],
    ['the URL contains /orders', 'url_contains_orders'],
    ['', 'check'],
    ['!!!', 'check'],
  ])('%j → %s', (text, key) => {
    expect(slugKey(text)).toBe(key);
  });

  it('cuts a long key at a word, within 60 characters', () => {
    const key = slugKey('alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron');

    expect(key.length).toBeLessThanOrEqual(60);
    expect(key).toMatch(/^alpha_beta_.*[a-z]$/);
  });
});

describe('numbers, determiners and quotes', () => {
  it.each<[string, number | undefined]>([
    ['3', 3],
    ['three', 3],
    ['Twelve', 12],
    ['zero', 0],
    ['a dozen', 12],
    ['many', undefined],
  ])('numberOf(%j) = %j', (word, value) => {
    expect(numberOf(word)).toBe(value);
  });

  it('strips leading articles but keeps a capitalised possessive that is part of a label', () => {
    expect(stripDeterminers('the Desk Lamp')).toBe('Desk Lamp');
    expect(stripDeterminers('a hat')).toBe('hat');
    expect(stripDeterminers('your cart')).toBe('cart');
    expect(stripDeterminers('Your name')).toBe('Your name');
  });

  it('matches outside quotes and cuts groups from the original text', () => {
    expect(maskQuotes('click "Sign in and pay" now')).toBe('click "xxxxxxxxxxxxxxx" now');
    expect(matchOutsideQuotes('click "Sign in and pay" and wait', /^(.+?) and (.+)$/)).toEqual([
      'click "Sign in and pay" and wait',
      'click "Sign in and pay"',
      'wait',
    ]);
    expect(matchOutsideQuotes('click Apply', /^tap (.+)$/)).toBeUndefined();
  });
});
