import { describe, expect, it } from '@jest/globals';
import { splitSteps, stripFiller } from '../../../src/planner/step-clauses.js';

const texts = (task: string): string[] => splitSteps(task).map((clause) => clause.text);

describe('splitSteps', () => {
  it.each<[string, string[]]>([
    [
      'Sign in as the demo user, add the Desk Lamp to the cart and apply the coupon SAVE10',
      ['Sign in as the demo user', 'add the Desk Lamp to the cart', 'apply the coupon SAVE10'],
    ],
    ['check out and place the order, and verify the order', ['check out', 'place the order', 'verify the order']],
    ['Go to /pricing. Then click Pro; finally press Enter!', ['Go to /pricing', 'click Pro', 'press Enter']],
    ['go to /pricing then click Pro & press Enter', ['go to /pricing', 'click Pro', 'press Enter']],
    ['Go to checkout but do not pay', ['Go to checkout', 'do not pay']],
    ['click "Terms and conditions, then accept"', ['click "Terms and conditions, then accept"']],
    ["make sure the page says 'Read. Then pay.'", ["make sure the page says 'Read. Then pay.'"]],
    ['visit https://shop.example.test/a.b?c=1 and check the total is $1,000.50', ['visit https://shop.example.test/a.b?c=1', 'check the total is $1,000.50']],
    ['enter demo@example.test in Email', ['enter demo@example.test in Email']],
    ['1. go to /pricing\n2. click Pro\n- press Enter', ['go to /pricing', 'click Pro', 'press Enter']],
    ['check the user’s name', ["check the user's name"]],
    ['  ', []],
    // Credentials joined by "and" stay one clause; a clause that only starts like a password does not.
    ['sign in with email demo@acme.test and password hunter2, then click Pro', ['sign in with email demo@acme.test and password hunter2', 'click Pro']],
    ['log in as demo@acme.test and the demo password and add the Desk Lamp', ['log in as demo@acme.test and the demo password', 'add the Desk Lamp']],
    ['sign in with demo@acme.test and "x and y"', ['sign in with demo@acme.test and "x and y"']],
    ['sign in as the demo user and check the password field', ['sign in as the demo user', 'check the password field']],
    ['type demo@acme.test into Email and the demoPassword into Password', ['type demo@acme.test into Email', 'the demoPassword into Password']],
    ['set the Date to May 1, 2024, then click Save', ['set the Date to May 1, 2024', 'click Save']],
  ])('%j', (task, clauses) => {
    expect(texts(task)).toEqual(clauses);
  });

  it('keeps each clause\'s place in the task, so questions can be asked in task order', () => {
    const task = 'go to /pricing, click Pro';
    const [first, second] = splitSteps(task);

    expect(task.slice(first.start, first.end)).toBe('go to /pricing');
    expect(task.slice(second.start, second.end).trim()).toBe('click Pro');
  });
});

describe('stripFiller', () => {
  it.each<[string, string]>([
    ['please click Apply', 'click Apply'],
    ['then please click Apply', 'click Apply'],
    ['First, go', 'First, go'],
    ['and then go to /pricing', 'go to /pricing'],
    ['after that go to /pricing', 'go to /pricing'],
    ['can you go to /pricing', 'go to /pricing'],
    ['make sure to click Apply', 'click Apply'],
    ['make sure the page says Hi', 'make sure the page says Hi'],
    ['step 2: press Enter', 'press Enter'],
  ])('%j → %j', (text, stripped) => {
    expect(stripFiller(text)).toBe(stripped);
  });
});
