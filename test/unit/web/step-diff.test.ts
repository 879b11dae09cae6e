import { describe, expect, it } from '@jest/globals';
import { canonicalJson, changedLocatorIndexes, diffSteps } from '../../../web/src/checks/step-diff.js';
import { locatorText, stepView } from '../../../web/src/checks/step-view.js';

/** Steps as a compiled version stores them (src/core/check.ts), read by the check page. */
const open = { step: { action: 'navigate', description: 'Open the home page', url: '/' } };
const fillEmail = {
  step: { action: 'fill', description: 'Type the email', target: { by: 'label', name: 'Email', exact: false }, value: { kind: 'literal', text: 'ada@example.com' } },
  locator: { strategy: 'label', name: 'Email', exact: false },
};
const signIn = (name: string) => ({
  step: { action: 'click', description: 'Sign in', target: { by: 'role', role: 'button', name: 'Sign in', exact: false } },
  locator: { strategy: 'role', role: 'button', name, exact: true },
});

describe('diffSteps: a healed proposal against the accepted version', () => {
  it('marks only the step whose locator the healing replaced', () => {
    const rows = diffSteps([open, fillEmail, signIn('Sign in')], [open, fillEmail, signIn('Log in')]);
    expect(rows.map((row) => row.changes)).toEqual([[], [], ['locator']]);
    expect(changedLocatorIndexes(rows)).toEqual([2]);
  });

  it('does not see a change in key order alone', () => {
    const reordered = { locator: { exact: true, name: 'Sign in', role: 'button', strategy: 'role' }, step: signIn('Sign in').step };
    expect(diffSteps([signIn('Sign in')], [reordered])[0]!.changes).toEqual([]);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
  });

  it('tells a changed value, a drop target and an action apart from a locator', () => {
    const typed = { ...fillEmail, step: { ...fillEmail.step, value: { kind: 'testValue', name: 'EMAIL' } } };
    const drag = (name: string) => ({ step: { action: 'dragTo', description: 'Drag', target: { by: 'text', name: 'A' }, to: { by: 'text', name: 'B' } }, locator: { strategy: 'text', name: 'A', exact: false }, toLocator: { strategy: 'text', name, exact: false } });
    const rows = diffSteps([fillEmail, drag('B'), open], [typed, drag('Bin'), { step: { action: 'reload', description: 'Reload' } }]);
    expect(rows.map((row) => row.changes)).toEqual([['value'], ['toLocator'], ['action', 'value']]);
    expect(changedLocatorIndexes(rows)).toEqual([1]);
  });

  it('lists steps only one side has as added or removed', () => {
    const rows = diffSteps([open], [open, fillEmail]);
    expect(rows.map((row) => [row.index, row.added, row.removed])).toEqual([[0, false, false], [1, true, false]]);
    expect(diffSteps([open, fillEmail], [open])[1]).toMatchObject({ removed: true, after: undefined });
  });
});

describe('stepView: a step as a person reads it', () => {
  it('writes the locator as Playwright does and a secret value by its name only', () => {
    const secret = { ...fillEmail, step: { ...fillEmail.step, value: { kind: 'testValue', name: 'PASSWORD' } } };
    expect(stepView(secret)).toEqual({ action: 'fill', description: 'Type the email', target: "getByLabel('Email')", to: '', value: 'secret: PASSWORD' });
    expect(stepView(signIn("Ada's")).target).toBe("getByRole('button', { name: 'Ada\\'s', exact: true })");
    expect(stepView(open)).toMatchObject({ action: 'navigate', target: '', value: '/' });
  });

  it('reads scoped, positional and sign-in-form locators, and a target not yet resolved', () => {
    expect(locatorText({ strategy: 'role', role: 'checkbox', name: '', exact: false, scope: { role: 'listitem', text: 'Pay rent' }, nth: -1 })).toBe(
      "getByRole('listitem').filter({ hasText: 'Pay rent' }).getByRole('checkbox').last()",
    );
    expect(locatorText({ strategy: 'role', role: 'button', name: 'Go', exact: false, within: 'passwordForm' })).toBe(
      `locator('form:has(input[type="password"])').getByRole('button', { name: 'Go' })`,
    );
    expect(stepView({ step: { action: 'click', description: 'x', target: { by: 'role', role: 'link', name: 'Pricing' } } }).target).toBe('link "Pricing"');
  });

  it('reads a step of an unknown shape as blanks instead of failing', () => {
    expect(stepView({ step: 'nonsense', locator: 3 })).toEqual({ action: '?', description: '', target: '', to: '', value: '' });
  });
});
