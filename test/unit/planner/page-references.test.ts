/**
 * Families of phrasing found on practice sites (issue 25), each with wording and apps other than the corpus's:
 * credentials named by their role, pages a site numbers, a busy text referred to later, numbered boxes, a bare field.
 */
import { describe, expect, it } from '@jest/globals';
import { bareFieldTarget } from '../../../src/planner/bare-fields.js';
import { referToBusyText } from '../../../src/planner/earlier-texts.js';
import { numberedPageName } from '../../../src/planner/numbered-pages.js';
import { positionOf } from '../../../src/core/positions.js';
import { field, literal, signInButton, stepsOf } from './plan-support.js';

describe('credentials named by the role each value plays', () => {
  it('reads one value "as both" fields', () => {
    expect(stepsOf('Go to /signin and log in with "guest" as both the username and the password')).toEqual([
      { action: 'navigate', url: '/signin' },
      { action: 'fill', target: field('Username'), value: literal('guest') },
      { action: 'fill', target: field('Password'), value: literal('guest') },
      { action: 'click', target: signInButton('Log in') },
    ]);
  });

  it('reads each value followed by its field', () => {
    expect(stepsOf("Go to /signin, then sign in using 'ada' as the user name and 'pw-77' as the password").slice(-3)).toEqual([
      { action: 'fill', target: field('Username'), value: literal('ada') },
      { action: 'fill', target: field('Password'), value: literal('pw-77') },
      { action: 'click', target: signInButton('Sign in') },
    ]);
  });
});

describe('pages a site numbers within a topic', () => {
  it.each<[string, string | undefined]>([
    ['Form Validation example 3', 'Form Validation example 3'],
    ['the third Drag and Drop demo', 'Drag and Drop demo 3'],
    ['the Modal Windows exercise two', 'Modal Windows exercise 2'],
    ['the 2nd Shadow DOM sample', 'Shadow DOM sample 2'],
    ['the settings page', undefined],
    ['example 2', undefined],
  ])('%j is %j', (phrase, name) => {
    expect(numberedPageName(phrase)).toBe(name);
  });

  it('goes to such a page by name, with its number, and reads "the one titled" as its heading', () => {
    expect(stepsOf('Visit the third Sortable Lists demo, the one titled "Sortable lists". Click Shuffle.')).toEqual([
      { action: 'navigate', url: '/sortable-lists-demo-3', page: 'Sortable Lists demo 3' },
      { action: 'expectText', text: 'Sortable lists', role: 'heading', criterion: expect.any(String) },
      { action: 'click', target: { by: 'role', role: 'button', name: 'Shuffle', exact: false } },
    ]);
    expect(stepsOf('Open Form Validation example 3')).toEqual([{ action: 'navigate', url: '/form-validation-example-3', page: 'Form Validation example 3' }]);
  });
});

describe('a busy text quoted earlier, referred to by what it is', () => {
  it('reads "the progress text" as the last busy text quoted before it', () => {
    expect(stepsOf('Click Upload and check that "Uploading…" appears, then wait for "Done" and make sure the progress text is gone')).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'Upload', exact: false } },
      expect.objectContaining({ action: 'expectState', target: { by: 'text', name: 'Uploading…', exact: true }, state: 'visible' }),
      { action: 'waitFor', target: { by: 'text', name: 'Done', exact: true } },
      expect.objectContaining({ action: 'expectState', target: { by: 'text', name: 'Uploading…', exact: true }, state: 'hidden' }),
    ]);
  });

  it('takes a text that says it is waiting, and "has gone" as gone', () => {
    expect(referToBusyText('the loading message has gone', 'Press Go. "Please wait while we fetch" appears. "Ready" shows.')).toBe('"Please wait while we fetch" has gone');
  });

  it('leaves the clause as written when nothing busy was quoted', () => {
    expect(referToBusyText('the loading message is gone', 'Click "Save" and check "Saved".')).toBe('the loading message is gone');
  });
});

describe('boxes the page numbers, and a field named only by its kind', () => {
  it('reads "radio 2" and "checkbox 3" as boxes of that kind by the text beside them', () => {
    expect(stepsOf('Select radio 2, then tick checkbox 3 and check that it is ticked; untick it again and check that it is no longer ticked')).toEqual([
      expect.objectContaining({ target: { by: 'label', role: 'radio', name: 'radio 2', exact: false } }),
      { action: 'check', target: { by: 'label', role: 'checkbox', name: 'checkbox 3', exact: false }, checked: true },
      expect.objectContaining({ action: 'expectState', target: { by: 'label', role: 'checkbox', name: 'checkbox 3', exact: false }, state: 'checked' }),
      expect.objectContaining({ action: 'click', target: { by: 'label', role: 'checkbox', name: 'checkbox 3', exact: false } }),
      expect.objectContaining({ action: 'expectState', target: { by: 'label', role: 'checkbox', name: 'checkbox 3', exact: false }, state: 'unchecked' }),
    ]);
  });

  it('reads "the text box" and "the input" of a state as the field the page has', () => {
    expect(bareFieldTarget('the text box')).toEqual({ by: 'description', role: 'textbox', name: 'text box', exact: false });
    expect(stepsOf('Click Unlock and check that the input is enabled')).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'Unlock', exact: false } },
      expect.objectContaining({ action: 'expectState', target: { by: 'description', role: 'textbox', name: 'input', exact: false }, state: 'enabled' }),
    ]);
    expect(bareFieldTarget('the Email field')).toBeUndefined();
  });
});

describe('an element named by its place against another', () => {
  it('reads "the note below the Email field" and "the message above the heading" as places', () => {
    expect(positionOf('the note below the Email field')).toEqual({ noun: 'note', relation: 'below', anchor: 'the Email field' });
    expect(positionOf('The message above the heading')).toEqual({ noun: 'message', relation: 'above', anchor: 'the heading' });
    expect(positionOf('the Save button')).toBeUndefined();
  });

  it('checks what that element says, never the whole page', () => {
    expect(stepsOf('Check that the error text under the Password field says "Too short" or "Required"')).toEqual([
      { action: 'expectText', text: 'Too short', orText: ['Required'], target: { by: 'description', name: 'the error text under the Password field', exact: false }, criterion: expect.any(String) },
    ]);
  });
});
