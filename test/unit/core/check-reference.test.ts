import { describe, expect, it } from '@jest/globals';
import { looksLikeId, pickCheckById, pickCheckByWords, type CheckCandidate } from '../../../src/core/check-reference.js';

const check = (id: string, task: string, status: 'active' | 'draft' = 'active'): CheckCandidate => ({ id, task, status });
// Newest first, as the check service lists them.
const checks = [
  check('c1', 'Check the home page'),
  check('c2', 'Check the pricing page lists three plans'),
  check('c3', 'Check the order history', 'draft'),
  check('c4', 'Check the cart is empty', 'draft'),
  check('c5', 'Check the cart total'),
  check('c6', 'Check the cart', 'draft'),
];

describe('pickCheckByWords: the one rule of every conversation for naming a check', () => {
  it.each([
    ['a fragment that fits one active check', 'HOME page', { kind: 'found', check: checks[0] }],
    ['several active checks: the candidates', 'page', { kind: 'ambiguous', candidates: [checks[0], checks[1]] }],
    ['nothing', 'the moon landing', { kind: 'unknown' }],
    ['only a draft', 'order history', { kind: 'not_replayable', check: checks[2] }],
    // Drafts are never candidates: a fragment that fits one active check and a draft replays the active one.
    ['one active check and a draft', 'cart t', { kind: 'found', check: checks[4] }],
    // An exact task wins over fragments, even when it is a draft: the person named that check.
    ['an exact task that is a draft', '  check the CART ', { kind: 'not_replayable', check: checks[5] }],
  ])('%s', (_what, wanted, expected) => {
    expect(pickCheckByWords(checks, wanted)).toEqual(expected);
  });

  it('lists at most ten candidates', () => {
    const many = Array.from({ length: 12 }, (_unused, index) => check(`m${index}`, `Check page ${index}`));
    expect(pickCheckByWords(many, 'page')).toMatchObject({ kind: 'ambiguous', candidates: many.slice(0, 10) });
  });
});

describe('pickCheckById', () => {
  it('finds an active check and says a draft has not passed', () => {
    expect(pickCheckById(checks[0]!)).toEqual({ kind: 'found', check: checks[0] });
    expect(pickCheckById(checks[2]!)).toEqual({ kind: 'not_replayable', check: checks[2] });
  });
});

describe('looksLikeId', () => {
  it('tells an id from words', () => {
    expect(looksLikeId(' 6F1C2A9E-0000-4000-8000-000000000001 ')).toBe(true);
    expect(looksLikeId('6f1c2a9e')).toBe(false);
    expect(looksLikeId('home page')).toBe(false);
  });
});
