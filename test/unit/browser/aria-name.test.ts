import { describe, expect, it } from '@jest/globals';
import { roleAndNameOf } from '../../../src/browser/aria-name.js';

describe('roleAndNameOf (the first line of an ARIA snapshot)', () => {
  it.each([
    ['- button "Sign in"', { role: 'button', name: 'Sign in' }],
    ['- button "Remove \\"Blue Mug\\"" [pressed]\n  - img', { role: 'button', name: 'Remove "Blue Mug"' }],
    ['- link "C:\\\\path"', { role: 'link', name: 'C:\\path' }],
    ['- spin-button "Qty"', { role: 'spin-button', name: 'Qty' }],
    ['- text: Welcome', { role: 'text', name: '' }],
    ['- button', { role: 'button', name: '' }],
    ['  - heading "Pricing" [level=1]', { role: 'heading', name: 'Pricing' }],
  ])('%j', (snapshot, read) => {
    expect(roleAndNameOf(snapshot)).toEqual(read);
  });

  it('reads nothing from an empty snapshot or one that is not a snapshot line', () => {
    expect(roleAndNameOf('')).toBeUndefined();
    expect(roleAndNameOf('button "Sign in"')).toBeUndefined();
  });
});
