/**
 * Issue 13, part 1: values written in the task are used as written. Each row is a task as people say it and what
 * the rule planner must make of it: the fields it fills and with what (a literal as written, or a configured test
 * value by name, read from its secret at run time), or the one question it asks (a field with no value at all, or
 * a stored value that is not configured).
 */
import { describe, expect, it } from '@jest/globals';
import { taskWithAnswers, type Interpretation } from '../../../src/core/interpretation.js';
import type { PlanValue } from '../../../src/core/plan.js';
import { interpretTask } from '../../../src/planner/rule-planner.js';

/** The repository of the issue's example: one configured test value, the demo password. */
const NAMES = ['demoPassword'];

const lit = (text: string): PlanValue => ({ kind: 'literal', text });
const secret = (name: string): PlanValue => ({ kind: 'testValue', name });
type Fill = [field: string, value: PlanValue];
type Expected = { fills: Fill[] } | { question: string };

const fieldQuestion = (field: string) => `What should the run type into the ${JSON.stringify(field)} field? Give the value (in quotes if it has spaces) or the name of a configured test value.`;
const EMAIL = lit('demo@acme.test');
const ISSUE_EXAMPLE = 'enter demo@acme.test as the Email and the demoPassword as the Password, click "Sign in", and check that the page says "Welcome back"';

function interpret(task: string, names: string[] = NAMES): Interpretation {
  return interpretTask(task, { testValueNames: names, evidenceCriteria: [] });
}

/** What a task came to: its fill steps (field label and value), or its questions. */
function outcome(result: Interpretation): { fills: Fill[] } | { questions: string[] } {
  if (result.kind === 'needs_clarification') return { questions: result.questions };
  if (result.kind !== 'runnable') throw new Error(`unexpected interpretation ${JSON.stringify(result)}`);
  const fills: Fill[] = [];
  for (const step of result.plan.steps) {
    if (step.action !== 'fill') continue;
    fills.push([step.target.name, step.value]);
  }
  return { fills };
}

function expected(row: Expected): { fills: Fill[] } | { questions: string[] } {
  return 'fills' in row ? row : { questions: [row.question] };
}

const PHRASINGS: Array<[task: string, expected: Expected]> = [
  // The issue's example, and its parts said other ways.
  [ISSUE_EXAMPLE, { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['enter demo@acme.test as the Email', { fills: [['Email', EMAIL]] }],
  ['enter the Email as demo@acme.test', { fills: [['Email', EMAIL]] }],
  ['type demo@acme.test into Email', { fills: [['Email', EMAIL]] }],
  ['type demo@acme.test into the Email field', { fills: [['Email', EMAIL]] }],
  ['enter demo@acme.test in the Email field', { fills: [['Email', EMAIL]] }],
  ['fill in Email with demo@acme.test', { fills: [['Email', EMAIL]] }],
  ['fill the Email field with demo@acme.test', { fills: [['Email', EMAIL]] }],
  ['fill out Email with demo@acme.test.', { fills: [['Email', EMAIL]] }],
  ['populate the Email field with demo@acme.test', { fills: [['Email', EMAIL]] }],
  ['use demo@acme.test for the email', { fills: [['email', EMAIL]] }],
  ['use demo@acme.test as the email', { fills: [['email', EMAIL]] }],
  ['enter the email demo@acme.test', { fills: [['email', EMAIL]] }],
  ['enter email: demo@acme.test', { fills: [['email', EMAIL]] }],
  ['enter the code 123456', { fills: [['code', lit('123456')]] }],
  ['type the message "Hello there"', { fills: [['message', lit('Hello there')]] }],
  ['put demo@acme.test in Email', { fills: [['Email', EMAIL]] }],
  ['put in demo@acme.test as the email', { fills: [['email', EMAIL]] }],
  ['type in demo@acme.test for the Email', { fills: [['Email', EMAIL]] }],
  ['Please provide demo@acme.test for the Email', { fills: [['Email', EMAIL]] }],
  ['then key in demo@acme.test into the Email box', { fills: [['Email', EMAIL]] }],
  // Numbers, dates, phone numbers, URLs, amounts: self-evidently values.
  ['set Quantity to 3', { fills: [['Quantity', lit('3')]] }],
  ['change the Quantity to 12', { fills: [['Quantity', lit('12')]] }],
  ['set the Quantity field to 3', { fills: [['Quantity', lit('3')]] }],
  ['put 3 in the Quantity box', { fills: [['Quantity', lit('3')]] }],
  ['enter 2024-05-01 as the Date', { fills: [['Date', lit('2024-05-01')]] }],
  ['set the Date to May 1, 2024', { fills: [['Date', lit('May 1, 2024')]] }],
  ['type 05/01/2024 into Date of birth', { fills: [['Date of birth', lit('05/01/2024')]] }],
  ['enter 1 May 2024 for the Start date', { fills: [['Start date', lit('1 May 2024')]] }],
  ['enter +1 (555) 010-0199 as the Phone number', { fills: [['Phone number', lit('+1 (555) 010-0199')]] }],
  ['type 555-010-0199 in Phone', { fills: [['Phone', lit('555-010-0199')]] }],
  ['enter https://acme.test/about as the Website', { fills: [['Website', lit('https://acme.test/about')]] }],
  ['set Amount to $9.99', { fills: [['Amount', lit('$9.99')]] }],
  ['enter 15% in Discount', { fills: [['Discount', lit('15%')]] }],
  ['set the Time to 09:30', { fills: [['Time', lit('09:30')]] }],
  // Quoted, and plain words typed as written.
  ['type "Ada Lovelace" into Full name', { fills: [['Full name', lit('Ada Lovelace')]] }],
  ["enter 'Blue' for Colour", { fills: [['Colour', lit('Blue')]] }],
  ['enter "the demo password" in Notes', { fills: [['Notes', lit('the demo password')]] }],
  ['fill in Name with Ada', { fills: [['Name', lit('Ada')]] }],
  ['enter Blue as the Colour', { fills: [['Colour', lit('Blue')]] }],
  // A configured name: the test value, read from its secret at run time.
  ['enter the demoPassword as the Password', { fills: [['Password', secret('demoPassword')]] }],
  ['type demoPassword into Password', { fills: [['Password', secret('demoPassword')]] }],
  ['fill in Password with the demoPassword', { fills: [['Password', secret('demoPassword')]] }],
  ['use the demo password for the Password', { fills: [['Password', secret('demoPassword')]] }],
  ['enter the password demoPassword', { fills: [['password', secret('demoPassword')]] }],
  ['enter the Password as demoPassword', { fills: [['Password', secret('demoPassword')]] }],
  // Signing in with values written out.
  ['sign in as demo@acme.test with password demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['sign in as demo@acme.test with password "s3cret!"', { fills: [['Email', EMAIL], ['Password', lit('s3cret!')]] }],
  ['log in as demo@acme.test / demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['log in as demo@acme.test/hunter2', { fills: [['Email', EMAIL], ['Password', lit('hunter2')]] }],
  ['sign in with email demo@acme.test and password demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['log in with username ada and password "hunter 2"', { fills: [['Username', lit('ada')], ['Password', lit('hunter 2')]] }],
  ['sign in with demo@acme.test and "hunter2"', { fills: [['Email', EMAIL], ['Password', lit('hunter2')]] }],
  ['sign in as demo@acme.test and the demo password', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['sign in as demo@acme.test with the demo password', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['sign in as ada with password hunter2', { fills: [['Username', lit('ada')], ['Password', lit('hunter2')]] }],
  ['log in as admin/admin', { fills: [['Username', lit('admin')], ['Password', lit('admin')]] }],
  ['log into the app as demo@acme.test with password demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['sign in using demo@acme.test and demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['authenticate as demo@acme.test / "pa ss"', { fills: [['Email', EMAIL], ['Password', lit('pa ss')]] }],
  ['sign in as demo@acme.test', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['sign in using email: demo@acme.test and password: demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['fill in the form with email demo@acme.test and password demoPassword', { fills: [['email', EMAIL], ['password', secret('demoPassword')]] }],
  ['fill out the sign-in form with Email: demo@acme.test, Password: demoPassword', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  // A value and no field: an address goes into Email, a stored value called by its kind into that kind's field.
  ['enter the demo password, then click "Sign in"', { fills: [['Password', secret('demoPassword')]] }],
  ['enter demo@acme.test and the demoPassword, and click "Sign in"', { fills: [['Email', EMAIL], ['Password', secret('demoPassword')]] }],
  ['type demo@acme.test, then press Tab', { fills: [['Email', EMAIL]] }],
  ['enter the admin password, then press Enter', { question: 'Which test value holds the admin password? Configure it in testValueSecretRefs.' }],
  // Only a field with no value at all, or a stored value that is not configured, is a question.
  ['fill in the Email field', { question: fieldQuestion('Email') }],
  ['enter your email', { question: fieldQuestion('email') }],
  ['type into the Password field', { question: fieldQuestion('Password') }],
  ['type the password, then press Enter', { question: fieldQuestion('password') }],
  ['enter demo@acme.test as the Email and fill in the Password field', { question: fieldQuestion('Password') }],
  ['type the admin password into Password', { question: 'Which test value holds the admin password? Configure it in testValueSecretRefs.' }],
  ['sign in as the demo user', { question: "Which test value holds the demo user's email? Configure it in testValueSecretRefs." }],
];

describe('values written in the task are used as written (issue 13, part 1)', () => {
  it('covers at least 40 phrasings', () => {
    expect(PHRASINGS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(PHRASINGS)('%j', (task, row) => {
    expect(outcome(interpret(task))).toEqual(expected(row));
  });

  it('signs in with what was written: the sign-in page, both fields, then the button', () => {
    const result = interpret('sign in as demo@acme.test with password demoPassword');
    expect(result.kind === 'runnable' ? result.plan.steps.map((step) => step.action) : result).toEqual(['navigate', 'fill', 'fill', 'click']);
  });

  it('asks about a name written out that the repository does not configure, instead of typing it', () => {
    expect(outcome(interpret(ISSUE_EXAMPLE, []))).toEqual({ questions: ['Which test value holds the demoPassword? Configure it in testValueSecretRefs.'] });
  });

  it('keeps a configured value out of the plan: only its name is there, to be read at run time', () => {
    const result = interpret('enter demo@acme.test as the Email and the demoPassword as the Password');
    expect(result.kind).toBe('runnable');
    const plan = result.kind === 'runnable' ? result.plan : undefined;
    expect(plan?.steps[1]).toMatchObject({ value: { kind: 'testValue', name: 'demoPassword' }, description: 'Fill the "Password" field with the test value demoPassword' });
  });
});

describe('answers to the value questions decide them', () => {
  function answered(task: string, answer: string, names: string[] = NAMES): ReturnType<typeof outcome> {
    const first = interpret(task, names);
    if (first.kind !== 'needs_clarification') throw new Error(`expected questions for ${task}`);
    return outcome(interpret(taskWithAnswers(task, { questions: first.questions, answers: [answer] }), names));
  }

  it.each<[string, string, Fill[]]>([
    ['fill in the Email field', 'demo@acme.test', [['Email', EMAIL]]],
    ['fill in the Email field', 'use demo@acme.test', [['Email', EMAIL]]],
    ['fill in the Email field', '"Ada Lovelace"', [['Email', lit('Ada Lovelace')]]],
    ['type into the Password field', 'demoPassword', [['Password', secret('demoPassword')]]],
    ['type the admin password into Password', 'demoPassword', [['Password', secret('demoPassword')]]],
    ['type the admin password into Password', '"hunter2"', [['Password', lit('hunter2')]]],
  ])('%j answered %j', (task, answer, fills) => {
    expect(answered(task, answer)).toEqual({ fills });
  });

  it('asks again when the answer gives no value', () => {
    expect(answered('fill in the Email field', 'not sure')).toEqual({ questions: [fieldQuestion('Email')] });
  });
});
