import { describe, expect, it } from '@jest/globals';
import { stepsOf } from './plan-support.js';

const described = (name: string) => ({ by: 'description', name, exact: false });

describe('element nouns: an element named by what it is', () => {
  it.each<[string, string, string]>([
    ['check that the cart badge now shows 1', 'cart badge', '1'],
    ['the badge should say 3', 'badge', '3'],
    ['verify that the notification counter displays 12', 'notification counter', '12'],
  ])('%j reads that element\'s text, not the text anywhere on the page', (task, name, shown) => {
    expect(stepsOf(task)).toEqual([expect.objectContaining({ action: 'expectText', text: shown, target: described(name) })]);
  });

  it.each<[string, string]>([
    ['check that the badge is gone', 'badge'],
    ['make sure the cart badge disappears', 'cart badge'],
    ['the basket counter should not be visible', 'basket counter'],
  ])('%j is that element hidden, not a text saying the noun', (task, name) => {
    expect(stepsOf(task)).toEqual([expect.objectContaining({ action: 'expectState', state: 'hidden', target: described(name) })]);
  });

  it('leaves a subject that is not such a noun as it was', () => {
    expect(stepsOf('check that the total shows $90')).toEqual([expect.objectContaining({ action: 'expectText', text: '$90' })]);
    expect(stepsOf('check that the total shows $90')[0]).not.toHaveProperty('target');
  });
});
