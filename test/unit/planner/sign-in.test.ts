import { describe, expect, it } from '@jest/globals';
import { field, literal, navigate, questionsOf, signInButton, stepsOf, testValue, type Bare } from './plan-support.js';

const signIn = (identity: ReturnType<typeof testValue> | ReturnType<typeof literal>, password: string, label = 'Email', verb = 'Sign in'): Bare[] => [
  { ...navigate('/login'), page: 'sign-in' },
  { action: 'fill', target: field(label), value: identity },
  { action: 'fill', target: field('Password'), value: testValue(password) },
  { action: 'click', target: signInButton(verb) },
];

describe('sign-in: the usual steps with the configured test values', () => {
  it.each<[string, string[], Bare[]]>([
    ['Sign in as the demo user', ['demoEmail', 'demoPassword'], signIn(testValue('demoEmail'), 'demoPassword')],
    ['sign in as the demo user', ['demo_user_email', 'demo_password'], signIn(testValue('demo_user_email'), 'demo_password')],
    ['sign in as the demo user', ['demo_user', 'demo_password'], signIn(testValue('demo_user'), 'demo_password')],
    ['sign in as the demo user', ['DEMO_EMAIL', 'DEMO_PASSWORD'], signIn(testValue('DEMO_EMAIL'), 'DEMO_PASSWORD')],
    ['sign in as the demo user', ['demo-e-mail', 'demo-pwd'], signIn(testValue('demo-e-mail'), 'demo-pwd')],
    ['sign in as the demo user', ['demo_username', 'demo_pass'], signIn(testValue('demo_username'), 'demo_pass', 'Username')],
    ['Sign in as admin', ['demoEmail', 'demoPassword', 'adminEmail', 'adminPassword'], signIn(testValue('adminEmail'), 'adminPassword')],
    ['sign in as an admin', ['demoEmail', 'demoPassword', 'adminEmail', 'adminPassword'], signIn(testValue('adminEmail'), 'adminPassword')],
    ['Sign in with the admin credentials', ['demoEmail', 'demoPassword', 'adminEmail', 'adminPassword'], signIn(testValue('adminEmail'), 'adminPassword')],
    ['sign in', ['email', 'password', 'adminEmail', 'adminPassword'], signIn(testValue('email'), 'password')],
    ['sign in', ['demoEmail', 'demoPassword'], signIn(testValue('demoEmail'), 'demoPassword')],
    ['log in as the demo user', ['demoEmail', 'demoPassword'], signIn(testValue('demoEmail'), 'demoPassword', 'Email', 'Log in')],
    ['Log in with the demo email', ['demo_user', 'demo_password'], signIn(testValue('demo_user'), 'demo_password', 'Email', 'Log in')],
    ['login', ['demoEmail', 'demoPassword'], signIn(testValue('demoEmail'), 'demoPassword', 'Email', 'Log in')],
    ['sign-in as the demo user', ['demoEmail', 'demoPassword'], signIn(testValue('demoEmail'), 'demoPassword')],
    ['log in to the site as the demo user', ['demoEmail', 'demoPassword'], signIn(testValue('demoEmail'), 'demoPassword', 'Email', 'Log in')],
    ['sign in as demo@example.test with the demo password', ['demoEmail', 'demoPassword'], signIn(literal('demo@example.test'), 'demoPassword')],
    ['sign in as demo@example.test', ['demoEmail', 'demoPassword'], signIn(literal('demo@example.test'), 'demoPassword')],
  ])('%j with %j', (task, names, steps) => {
    expect(stepsOf(task, { testValueNames: names })).toEqual(steps);
  });

  it('does not open /login again when the task went there', () => {
    expect(stepsOf('go to /login and sign in as the demo user')).toEqual([navigate('/login'), ...signIn(testValue('demoEmail'), 'demoPassword').slice(1)]);
    expect(stepsOf('open the sign in page, then sign in as the demo user')).toEqual([{ ...navigate('/login'), page: 'sign in' }, ...signIn(testValue('demoEmail'), 'demoPassword').slice(1)]);
  });

  it('opens /login when the task went somewhere else first', () => {
    expect(stepsOf('go to /pricing and sign in as the demo user')).toEqual([navigate('/pricing'), ...signIn(testValue('demoEmail'), 'demoPassword')]);
  });

  it('never puts a secret into the plan: the values go by name', () => {
    expect(JSON.stringify(stepsOf('sign in as the demo user'))).not.toMatch(/Pa55word|demo@example/);
  });
});

describe('sign-in: asks before guessing', () => {
  it.each<[string, string[], string]>([
    ['sign in as the demo user', ['demoEmail'], "Which test value holds the demo user's password? Configure it in testValueSecretRefs."],
    ['sign in as the demo user', ['demoPassword'], "Which test value holds the demo user's email? Configure it in testValueSecretRefs."],
    ['sign in as the demo user', [], "Which test values hold the demo user's email and password? Configure them in testValueSecretRefs."],
    ['sign in as the demo user', ['adminEmail', 'adminPassword'], "Which test values hold the demo user's email and password? Configure them in testValueSecretRefs."],
    ['sign in', ['coupon_code'], 'Which test values hold the sign-in email and password? Configure them in testValueSecretRefs.'],
    ['sign in', ['demoEmail', 'demoPassword', 'adminEmail', 'adminPassword'], 'Which test value holds the sign-in email: demoEmail or adminEmail?'],
    ['sign in as demo@example.test', ['demoEmail'], 'Which test value holds the sign-in password? Configure it in testValueSecretRefs.'],
  ])('%j with %j asks %j', (task, names, question) => {
    expect(questionsOf(task, { testValueNames: names })).toEqual([question]);
  });

  it('uses the test value an answer names, and picks the password that goes with it', () => {
    const names = ['demoEmail', 'demoPassword', 'adminEmail', 'adminPassword'];
    const answers = (question: string) => (question === 'Which test value holds the sign-in email: demoEmail or adminEmail?' ? 'use demoEmail please' : undefined);

    expect(stepsOf('sign in', { testValueNames: names, answerTo: answers })).toEqual(signIn(testValue('demoEmail'), 'demoPassword'));
  });

  it('takes a test value named in the answer when none looked like a password', () => {
    const names = ['demoEmail', 'qa_secret'];
    const answers = (question: string) => (question.startsWith("Which test value holds the demo user's password?") ? 'qa_secret' : undefined);

    expect(stepsOf('sign in as the demo user', { testValueNames: names, answerTo: answers })).toEqual(signIn(testValue('demoEmail'), 'qa_secret'));
  });
});
