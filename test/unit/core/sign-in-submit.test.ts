import { describe, expect, it } from '@jest/globals';
import { chooseSignInSubmit, nameKind, type NameKind, type SubmitCandidate } from '../../../src/core/sign-in-submit.js';

/** A button of the password's form; `submits` unless said otherwise. */
const inForm = (name: string, submits = true): SubmitCandidate => ({ name, submits, form: 'password' });
const elsewhere = (name: string, form: SubmitCandidate['form'] = 'none', submits = false): SubmitCandidate => ({ name, submits, form });
const choose = (candidates: SubmitCandidate[], passwordInForm = true) => chooseSignInSubmit({ candidates, passwordInForm });
/** The name of the chosen control, or why there is none. */
const chosenName = (candidates: SubmitCandidate[], passwordInForm = true): string => {
  const choice = choose(candidates, passwordInForm);
  return choice.found ? candidates[choice.index]!.name : `(${choice.reason})`;
};

describe('nameKind: what a control says it does', () => {
  it.each<[string, NameKind]>([
    ['Sign in', 'signIn'],
    ['Log in', 'signIn'],
    ['Login', 'signIn'],
    ['LOG IN', 'signIn'],
    ['Log-in', 'signIn'],
    ['Sign on', 'signIn'],
    ['Sign in to Acme', 'signIn'],
    ['Sign me in →', 'signIn'],
    ['Member login', 'signIn'],
    ['Continue', 'generic'],
    ['Next ›', 'generic'],
    ['Submit', 'generic'],
    ['Go', 'generic'],
    ['Sign in with Google', 'alternative'],
    ['Continue with Apple', 'alternative'],
    ['Log in using SSO', 'alternative'],
    ['Sign in with a passkey', 'alternative'],
    ['Email me a magic link', 'alternative'],
    ['Sign up', 'never'],
    ['Signup', 'never'],
    ['Create an account', 'never'],
    ['Register', 'never'],
    ['Forgot password?', 'never'],
    ['Reset your password', 'never'],
    ['Show password', 'never'],
    ['Cancel', 'never'],
    ['Login help', 'never'],
    ['Log out', 'never'],
    ['Sign up with Google', 'never'],
    ['Add to cart', 'other'],
    ['', 'other'],
  ])('%j is %s', (name, kind) => {
    expect(nameKind(name)).toBe(kind);
  });
});

describe('chooseSignInSubmit: the form submit of the sign-in, whatever its label', () => {
  it('takes the sign-in verb whatever the task said: "Sign in", "Log in", "Login", "Sign on"', () => {
    for (const name of ['Sign in', 'Log in', 'Login', 'Sign on']) expect(chosenName([inForm(name)])).toBe(name);
  });

  it('takes "Sign in" over "Sign in with Google" and "Sign up", in either order', () => {
    const page = [inForm('Sign up', false), inForm('Sign in with Google', false), inForm('Sign in')];
    expect(chosenName(page)).toBe('Sign in');
    expect(chosenName([...page].reverse())).toBe('Sign in');
    // A Google button that would submit the form too (a <button> without a type) still loses to the real one.
    expect(chosenName([inForm('Sign in with Google', true), inForm('Sign in')])).toBe('Sign in');
  });

  it('takes "Log in" on a page with "Sign up" and "Log in", even when Sign up submits a form of its own', () => {
    expect(chosenName([elsewhere('Sign up', 'other', true), inForm('Log in')])).toBe('Log in');
    expect(chosenName([inForm('Sign up'), inForm('Log in')])).toBe('Log in');
  });

  it('never takes sign up, forgot password, show password or cancel, even when they are the only submits', () => {
    expect(choose([inForm('Sign up'), inForm('Forgot password?'), inForm('Show password'), inForm('Cancel')])).toEqual({ found: false, reason: 'none', matches: 0 });
  });

  it('falls back to the form\'s other submit control: Continue, Next, Submit, or a submit named otherwise', () => {
    expect(chosenName([inForm('Forgot password?', false), inForm('Continue')])).toBe('Continue');
    expect(chosenName([inForm('Next', false)])).toBe('Next');
    expect(chosenName([inForm('Go →')])).toBe('Go →');
    // A plain button that does not submit and says nothing is not taken.
    expect(choose([inForm('Toggle', false), inForm('Eye', false)])).toEqual({ found: false, reason: 'none', matches: 0 });
  });

  it('prefers the verb to a generic submit, and a button of the password\'s form to one elsewhere on the page', () => {
    expect(chosenName([inForm('Continue'), inForm('Log in', false)])).toBe('Log in');
    expect(chosenName([elsewhere('Sign in', 'none'), elsewhere('Sign in', 'other', true), inForm('Submit')])).toBe('Submit');
  });

  it('takes "Sign in with Google" only when nothing else submits the form, and only if it submits it', () => {
    expect(chosenName([inForm('Sign up', false), inForm('Sign in with Google', true)])).toBe('Sign in with Google');
    expect(choose([inForm('Sign in with Google', false)])).toEqual({ found: false, reason: 'none', matches: 0 });
  });

  it('breaks a tie only by "is a real submit", and asks rather than picks when one remains', () => {
    expect(chosenName([inForm('Sign in', false), inForm('Sign in', true)])).toBe('Sign in');
    expect(choose([inForm('Sign in'), inForm('Log in')])).toEqual({ found: false, reason: 'several', matches: 2 });
    expect(choose([inForm('Go'), inForm('Ok')])).toEqual({ found: false, reason: 'several', matches: 2 });
  });

  it('with no form around the password field, takes the one button named as a sign-in, nothing generic', () => {
    expect(chosenName([elsewhere('Sign up'), elsewhere('Continue'), elsewhere('Log in')], false)).toBe('Log in');
    expect(choose([elsewhere('Continue'), elsewhere('Next')], false)).toEqual({ found: false, reason: 'none', matches: 0 });
    expect(choose([elsewhere('Sign in'), elsewhere('Login')], false)).toEqual({ found: false, reason: 'several', matches: 2 });
  });

  it('finds nothing on a page without buttons, and the same answer for the same page every time', () => {
    expect(choose([])).toEqual({ found: false, reason: 'none', matches: 0 });
    const page = [inForm('Sign up', false), inForm('Continue with Google', false), inForm('Log in')];
    expect(choose(page)).toEqual(choose(page));
  });
});
