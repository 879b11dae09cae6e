import { describe, expect, it } from '@jest/globals';
import type { Target } from '../../../src/core/plan.js';
import { bareNounTarget, describeTarget, readTarget, type TargetKind } from '../../../src/planner/targets.js';

const role = (name: string, role: string, exact = false): Target => ({ by: 'role', role, name, exact });

describe('readTarget', () => {
  it.each<[string, TargetKind, Target]>([
    ['Apply', 'button', role('Apply', 'button')],
    ['"Apply"', 'button', role('Apply', 'button', true)],
    ["the 'Sign in' button", 'button', role('Sign in', 'button', true)],
    ['the Sign in button', 'button', role('Sign in', 'button')],
    ['Sign in button', 'link', role('Sign in', 'button')],
    ['the Pricing link', 'button', role('Pricing', 'link')],
    ['Pricing', 'link', role('Pricing', 'link')],
    ['the Plans heading', 'text', role('Plans', 'heading')],
    ['the Order confirmed title', 'text', role('Order confirmed', 'heading')],
    ['the Remember me checkbox', 'field', role('Remember me', 'checkbox')],
    ['the Remember me check box', 'field', role('Remember me', 'checkbox')],
    ['the Express radio button', 'button', role('Express', 'radio')],
    ['the Reviews tab', 'button', role('Reviews', 'tab')],
    ['the Dark mode toggle', 'field', role('Dark mode', 'switch')],
    ['the Settings menu', 'link', role('Settings', 'button')],
    ['the logo image', 'text', role('logo', 'img')],
    ['the Plans list', 'text', role('Plans', 'list')],
    ['the button labelled Save draft', 'text', role('Save draft', 'button')],
    ['the link called "Terms and conditions"', 'text', role('Terms and conditions', 'link', true)],
    ['the heading that says Welcome', 'text', role('Welcome', 'heading')],
    // The noun first, the name after it: "the heading Pricing" is a heading, not the text "heading Pricing".
    ['the heading Pricing', 'text', role('Pricing', 'heading')],
    ['a heading Order history', 'text', role('Order history', 'heading')],
    ['the button Save', 'text', role('Save', 'button')],
    ['the link About us', 'button', role('About us', 'link')],
    ["the tab 'Reviews'", 'text', role('Reviews', 'tab', true)],
    // Words that make it a phrase about the element, or no name at all: left as they were.
    ['the button below the form', 'text', { by: 'text', name: 'button below the form', exact: false }],
    ['the link in the Footer', 'text', { by: 'text', name: 'link in the Footer', exact: false }],
    ['the heading pricing', 'text', { by: 'text', name: 'heading pricing', exact: false }],
    ['Email', 'field', { by: 'label', name: 'Email', exact: false }],
    ['the Email field', 'button', { by: 'label', name: 'Email', exact: false }],
    ['the Coupon input', 'button', { by: 'label', name: 'Coupon', exact: false }],
    ['the Colour dropdown', 'button', { by: 'label', name: 'Colour', exact: false }],
    ['the Notes text area', 'button', { by: 'label', name: 'Notes', exact: false }],
    ['"Your name" field', 'button', { by: 'label', name: 'Your name', exact: true }],
    ['the field with placeholder Search', 'button', { by: 'placeholder', name: 'Search', exact: false }],
    ['the input with the placeholder text "you@example.com"', 'button', { by: 'placeholder', name: 'you@example.com', exact: true }],
    ['the warning text', 'button', { by: 'text', name: 'warning', exact: false }],
    ['Apple Pay', 'text', { by: 'text', name: 'Apple Pay', exact: false }],
    ['the Order confirmed heading.', 'text', role('Order confirmed', 'heading')],
  ])('%j (%s) → %j', (phrase, kind, target) => {
    expect(readTarget(phrase, kind)).toEqual(target);
  });

  it.each(['', 'it', 'them', 'the button', 'a link', 'the field', 'that'])('%j names no element', (phrase) => {
    expect(readTarget(phrase, 'button')).toBeUndefined();
  });

  it('reads a bare noun as the role of an element named elsewhere', () => {
    expect(bareNounTarget('the button', 'Buy now', true)).toEqual(role('Buy now', 'button', true));
    expect(bareNounTarget('the Buy button', 'Buy now', true)).toBeUndefined();
  });
});

describe('describeTarget', () => {
  it.each<[Target, string]>([
    [role('Apply', 'button'), 'the "Apply" button'],
    [role('Pricing', 'link'), 'the "Pricing" link'],
    [role('logo', 'img'), 'the "logo" image'],
    [role('Home', 'menuitem'), 'the "Home" menu item'],
    [{ by: 'label', name: 'Email', exact: false }, 'the "Email" field'],
    [{ by: 'placeholder', name: 'Search', exact: false }, 'the field with placeholder "Search"'],
    [{ by: 'text', name: 'FAQ', exact: false }, 'the text "FAQ"'],
    [{ by: 'description', name: 'field for new items', exact: false }, 'the field for new items'],
    [{ by: 'description', role: 'textbox', name: 'the search box at the top', exact: false }, 'the search box at the top'],
    [{ by: 'role', role: 'checkbox', name: '', exact: false, within: { text: 'Pay rent' } }, 'the checkbox in the row "Pay rent"'],
    [{ by: 'role', role: 'checkbox', name: '', exact: false, nth: 2 }, 'the 2nd checkbox'],
    [{ by: 'role', role: 'listitem', name: '', exact: false, nth: -1 }, 'the last list item'],
    [{ by: 'role', role: 'button', name: 'Delete', exact: true, within: { text: 'Call Ada' } }, 'the "Delete" button in the row "Call Ada"'],
    [{ by: 'role', role: 'button', name: 'Add to cart', exact: false, nth: 3 }, 'the 3rd "Add to cart" button'],
  ])('%j → %s', (target, description) => {
    expect(describeTarget(target)).toBe(description);
  });
});
