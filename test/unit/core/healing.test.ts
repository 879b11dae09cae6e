import { describe, expect, it } from '@jest/globals';
import { describesSame, judgeVotes, proposedLocator, wordsOf, type ElementDescription, type HealingRecord } from '../../../src/core/healing.js';

const button: ElementDescription = { tag: 'button', role: 'button', name: 'Add Desk Lamp to cart', text: 'Add Desk Lamp to cart' };
const record: HealingRecord = {
  element: button,
  alternatives: [
    { strategy: 'role', role: 'button', value: 'Add Desk Lamp to cart' },
    { strategy: 'testId', value: 'add-desk-lamp' },
    { strategy: 'css', value: 'main > ul > li.product:nth-of-type(3) > form > button.add-to-cart' },
  ],
};
const [role, testId, css] = record.alternatives as [HealingRecord['alternatives'][number], HealingRecord['alternatives'][number], HealingRecord['alternatives'][number]];
const reworded: ElementDescription = { ...button, name: 'Add the lamp to cart', text: 'Add the lamp to cart' };

describe('healing rules', () => {
  it('reads words without case, accents or in-word hyphens', () => {
    expect(wordsOf('E-mail  Adresse, Café!')).toEqual(['email', 'adresse', 'cafe']);
  });

  it('takes a reworded control of the same kind for the recorded one, and refuses another kind or another meaning', () => {
    expect(describesSame(button, reworded)).toBe(true);
    expect(describesSame(button, { ...reworded, tag: 'a', role: 'link' })).toBe(false);
    expect(describesSame(button, { ...button, name: 'Delete account', text: 'Delete account' })).toBe(false);
    expect(describesSame(button, { ...button, name: 'Remove Blue Mug from basket', text: 'Remove Blue Mug from basket' })).toBe(false);
  });

  it('takes a relabelled field that kept its placeholder, not one that changed its input type', () => {
    const field: ElementDescription = { tag: 'input', role: 'textbox', name: 'Coupon', text: '', type: 'text', placeholder: 'Enter a code' };
    expect(describesSame(field, { ...field, name: 'Promo code' })).toBe(true);
    expect(describesSame(field, { ...field, name: 'Promo code', placeholder: 'Code' })).toBe(false);
    expect(describesSame(field, { ...field, type: 'password' })).toBe(false);
  });

  it('heals when the alternatives that match agree on one element that still looks the same', () => {
    const verdict = judgeVotes(record, [{ alternative: role, matches: 0 }, { alternative: testId, matches: 1, element: 0 }, { alternative: css, matches: 1, element: 0 }], () => reworded);
    expect(verdict).toEqual({ healed: true, element: 0, agreeing: [testId, css] });
  });

  it('ignores an alternative that matches several elements, but heals on the rest', () => {
    const verdict = judgeVotes(record, [{ alternative: role, matches: 3 }, { alternative: testId, matches: 1, element: 0 }], () => reworded);
    expect(verdict.healed).toBe(true);
  });

  it('refuses when the alternatives disagree', () => {
    const verdict = judgeVotes(record, [{ alternative: testId, matches: 1, element: 0 }, { alternative: css, matches: 1, element: 1 }], () => reworded);
    expect(verdict).toEqual({ healed: false, reason: expect.stringContaining('disagree') });
  });

  it('refuses when only the CSS path matches, or nothing does', () => {
    expect(judgeVotes(record, [{ alternative: testId, matches: 0 }, { alternative: css, matches: 1, element: 0 }], () => reworded)).toEqual({ healed: false, reason: expect.stringContaining('only its CSS path') });
    expect(judgeVotes(record, [{ alternative: testId, matches: 0 }, { alternative: css, matches: 0 }], () => reworded)).toEqual({ healed: false, reason: expect.stringContaining('none of the 2') });
  });

  it('refuses when the element they agree on no longer looks like the recorded one', () => {
    const link = { tag: 'a', role: 'link', name: 'Desk Lamp details', text: 'Desk Lamp details' };
    const verdict = judgeVotes(record, [{ alternative: testId, matches: 1, element: 0 }], () => link);
    expect(verdict).toEqual({ healed: false, reason: 'the element they agree on no longer looks like the recorded one (was button "Add Desk Lamp to cart", now link "Desk Lamp details")' });
  });

  it('proposes a locator of the old kind when one finds the element, never a test id or a CSS path', () => {
    const now = [{ strategy: 'testId' as const, value: 'add-desk-lamp' }, { strategy: 'text' as const, value: 'Add the lamp to cart' }, { strategy: 'role' as const, role: 'button', value: 'Add the lamp to cart' }];
    expect(proposedLocator({ strategy: 'role' }, reworded, now)).toEqual({ strategy: 'role', role: 'button', name: 'Add the lamp to cart', exact: true });
    expect(proposedLocator({ strategy: 'text' }, reworded, now)).toEqual({ strategy: 'text', name: 'Add the lamp to cart', exact: true });
    const field: ElementDescription = { tag: 'input', role: 'textbox', name: 'Promo code', text: '', type: 'text' };
    expect(proposedLocator({ strategy: 'label' }, field, [{ strategy: 'role', role: 'textbox', value: 'Promo code' }, { strategy: 'label', value: 'Promo code' }])).toEqual({ strategy: 'label', name: 'Promo code', exact: true });
    expect(proposedLocator({ strategy: 'role' }, reworded, [{ strategy: 'testId', value: 'x' }, { strategy: 'css', value: '#x' }])).toBeUndefined();
  });
});
