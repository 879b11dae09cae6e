import { describe, expect, it } from '@jest/globals';
import { field, literal, stepsOf } from './plan-support.js';

const press = (key: string) => ({ action: 'press', key });

describe('keys pressed several times, and the value of the field just typed into', () => {
  it.each<[string, string, number]>([
    ['press the up arrow key once', 'ArrowUp', 1],
    ['Press the down arrow twice', 'ArrowDown', 2],
    ['hit Tab three times', 'Tab', 3],
    ['press Backspace 4 times', 'Backspace', 4],
  ])('%j presses %s %i time(s)', (task, key, times) => {
    expect(stepsOf(`Type "12" into the Amount field, then ${task}`).slice(1)).toEqual(Array.from({ length: times }, () => press(key)));
  });

  it('presses in a named field as often as said, wherever the count is', () => {
    expect(stepsOf('Type "a" into the Tags field and press Enter twice in the Tags field')).toEqual([
      { action: 'fill', target: field('Tags'), value: literal('a') },
      ...Array.from({ length: 2 }, () => ({ action: 'press', key: 'Enter', target: field('Tags') })),
    ]);
  });

  it('reads "it shows 7" after typing into a field as that field\'s value', () => {
    expect(stepsOf('Enter 6 in the Age field, press the up arrow and check that it shows 7. It should now read "7".')).toEqual([
      { action: 'fill', target: field('Age'), value: literal('6') },
      press('ArrowUp'),
      { action: 'expectValue', target: field('Age'), text: '7', criterion: expect.any(String) },
      { action: 'expectValue', target: field('Age'), text: '7', criterion: expect.any(String) },
    ]);
  });
});
