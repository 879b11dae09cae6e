import { describe, expect, it } from '@jest/globals';
import { colorName, hasLooks, isLookPhrase, looksIn, type LookFacts } from '../../../src/core/looks.js';

const none: LookFacts = { borders: [], background: [0, 0, 0, 0], color: [0, 0, 0, 1], ownText: false };

describe('looks: elements named by how they look', () => {
  it('reads a phrase that names only a look and a generic noun', () => {
    expect(['the dashed box', 'a red square', 'the dotted area', 'the light-blue panel'].map(isLookPhrase)).toEqual([true, true, true, false]);
    // A name of its own, or a noun that is a kind of control, is not a look phrase.
    expect(['the Delete box', 'the red Delete button', 'the dashed line chart', 'the box'].map(isLookPhrase)).toEqual([false, false, false, false]);
    expect(looksIn('the grey, dotted frame')).toEqual([{ kind: 'color', color: 'grey' }, { kind: 'border', style: 'dotted' }]);
  });

  it('names the colors people would', () => {
    const names = [[220, 30, 30], [93, 164, 35], [40, 90, 200], [250, 220, 40], [240, 140, 20], [128, 128, 128], [10, 10, 10], [252, 252, 252], [140, 60, 200], [255, 180, 200]].map((rgb) => colorName(rgb));
    expect(names).toEqual(['red', 'green', 'blue', 'yellow', 'orange', 'grey', 'black', 'white', 'purple', 'pink']);
    expect(colorName([255, 0, 0, 0])).toBeUndefined();
  });

  it('matches a border style on a drawn side, a background or border color, and a text color only on its own text', () => {
    const dashed: LookFacts = { ...none, borders: [{ style: 'dashed', color: [0, 0, 0, 1] }] };
    expect(hasLooks(dashed, looksIn('dashed box'))).toBe(true);
    expect(hasLooks(dashed, looksIn('dotted box'))).toBe(false);
    expect(hasLooks(dashed, looksIn('bordered box'))).toBe(true);
    expect(hasLooks(none, looksIn('bordered box'))).toBe(false);
    const green: LookFacts = { ...none, background: [93, 164, 35, 1] };
    expect(hasLooks(green, looksIn('the green message'))).toBe(true);
    expect(hasLooks({ ...none, color: [200, 20, 20, 1] }, looksIn('red text'))).toBe(false);
    expect(hasLooks({ ...none, color: [200, 20, 20, 1], ownText: true }, looksIn('red text'))).toBe(true);
    expect(hasLooks({ ...dashed, background: [200, 20, 20, 1] }, looksIn('the red dashed box'))).toBe(true);
  });
});
