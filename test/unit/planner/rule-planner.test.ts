import { describe, expect, it } from '@jest/globals';
import { taskWithAnswers, type Interpretation } from '../../../src/core/interpretation.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS, type SideEffectKind } from '../../../src/planner/side-effects.js';
import { VAGUE_QUESTION } from '../../../src/planner/vagueness.js';

const planner = createRulePlanner();
const context = { testValueNames: ['demo_user', 'demo_password'], evidenceCriteria: [] };
const interpret = (task: string): Promise<Interpretation> => planner.interpret(task, context);
const question = (kind: SideEffectKind): string => {
  const rule = SIDE_EFFECTS.find((candidate) => candidate.kind === kind);
  if (rule === undefined) throw new Error(`no rule for ${kind}`);
  return rule.question;
};
const questionsOf = (result: Interpretation): string[] => (result.kind === 'needs_clarification' ? result.questions : []);

describe('rule planner: tasks that ask to perform a side effect need clarification', () => {
  it.each<[string, SideEffectKind]>([
    ['Buy the cheapest item with the saved card', 'purchase'],
    ['BUY THE CHEAPEST ITEM!', 'purchase'],
    ['Please buy a gift card for $10.', 'purchase'],
    ['Try buying the red hat as a guest', 'purchase'],
    ['Purchase the Pro plan', 'purchase'],
    ['Add a hat to the cart, check out with the saved card and confirm the total', 'purchase'],
    ['Put two mugs in the basket then checkout', 'purchase'],
    ['Place an order for the blue mug', 'purchase'],
    ['Complete the checkout using the test card', 'purchase'],
    ['Pay the open invoice', 'purchase'],
    ['Use the saved card to pay for the order', 'purchase'],
    ['Order a large pizza and check the confirmation page', 'purchase'],
    ['Upgrade the workspace to the Business tier', 'purchase'],
    ['Book a table for two tonight', 'purchase'],
    ['Once you have bought the item, check the receipt', 'purchase'],
    ['Verify that a signed-in user can buy a gift card', 'purchase'],
    ['Delete the demo account', 'delete'],
    ['delete the demo account', 'delete'],
    ['Sign in as admin, go to Users, remove the demo user', 'delete'],
    ['Wipe all test data.', 'delete'],
    ['Erase the draft invoice', 'delete'],
    ['Click the Delete button on the first row', 'delete'],
    ['Empty the trash', 'delete'],
    ['Make sure to delete the old project', 'delete'],
    ['Send a message to the seller asking about shipping', 'message'],
    ['Email the invoice to the customer', 'message'],
    ['Text the demo user a login code', 'message'],
    ['Notify all subscribers about the sale', 'message'],
    ['Reply to the latest customer message', 'message'],
    ['Invite alice@example.com to the workspace', 'invite'],
    ['Inviting a teammate should show them in the member list', 'invite'],
    ['Add a new team member called Bob', 'invite'],
    ['Publish the draft blog post', 'publish'],
    ['Post a comment on the latest article', 'publish'],
    ['Make the page go live', 'publish'],
    ['Leave a 5-star review on the first product', 'publish'],
    ['Transfer $50 from checking to savings', 'transfer'],
    ['Wire money to the vendor', 'transfer'],
    ['Send $25 to Bob', 'transfer'],
    ['Refund the last order', 'transfer'],
    ['Issue a refund for order 1234', 'transfer'],
    ['Change the password of the demo user', 'account_change'],
    ["Reset the demo user's password", 'account_change'],
    ['Log in, go to Settings and update the email address to new@example.com', 'account_change'],
    ['Close my account', 'account_change'],
    ['Cancel the subscription and check the plan shows Free', 'account_change'],
    ['Sign up with a new email address', 'sign_up'],
    ['Signing up with a Google account should work', 'sign_up'],
    ['Register a new user and check the welcome page', 'sign_up'],
    ['Create an account for jane@example.com', 'sign_up'],
    ['Join the waitlist from the home page', 'sign_up'],
    ['Fill in the contact form and submit it', 'form_submission'],
    ['Enter your email and submit the contact form', 'form_submission'],
    ['Send the feedback form with a short note', 'form_submission'],
    ['Contact support through the chat widget', 'form_submission'],
    ['Request a demo from the pricing page', 'form_submission'],
    ['Open a support ticket about billing', 'form_submission'],
  ])('%j asks about %s', async (task, kind) => {
    const result = await interpret(task);

    expect(result.kind).toBe('needs_clarification');
    expect(questionsOf(result)).toEqual([question(kind)]);
  });

  it('quotes the clause that asks for the side effect in the ambiguity', async () => {
    const result = await interpret('Sign in as the demo user. Delete the demo account.');

    expect(result).toMatchObject({
      kind: 'needs_clarification',
      ambiguities: ['Deleting or removing data cannot be undone: "Delete the demo account".'],
    });
  });
});

describe('rule planner: reading and checking stays runnable', () => {
  it.each([
    "sign in as the demo user and make sure last month's invoices are listed",
    'Check that the pricing page lists three plans',
    'check that the Buy button is visible',
    // Opening the checkout form places no order (issue 28): placing it is what is asked about.
    'Open the cart and start the checkout',
    'Make sure the delete option is disabled',
    "verify the order history lists last month's orders",
    'see that the invite link is shown',
    'Check that the "Place order" button is disabled until terms are accepted',
    "Verify the button says 'Buy now'",
    'Confirm the order total is $42.00',
    'Open Order history and check the latest order',
    'Order history shows three orders',
    'Go to checkout but do not pay',
    'Add a hat to the cart and go to the checkout page; stop before paying',
    'Check the refund policy page loads',
    'Make sure the Sign up page loads',
    'Make sure the email field rejects "abc"',
    'Log in with the demo email and check the dashboard greeting',
    'Remove the filter and check ten results show',
    'Remove the first item from the cart and check the total',
    'Verify the checkout page shows the shipping cost',
    'Check that Apple Pay is offered on the payment page',
    'Check out the new pricing page and verify the FAQ is visible',
    'Check that deleted items are not shown in the list',
    'Confirm the order was placed yesterday appears in the history',
    'Search for order 1234 and verify its status is Shipped',
    'Verify the text size of the headline is 32px',
    'Make sure the Publish button is hidden for viewers',
    'Check that sent messages are listed in the Sent folder',
    'Verify the transfer history shows last week’s payments',
    'Look at the invitations page and check two pending invites are listed',
    'Navigate to the account settings page and check the email shown is the demo email',
    'Check the footer links to the privacy policy',
    'Select bank transfer and check the IBAN is shown',
    'Go to the Delete account page and verify the warning text',
    'Send a GET request to /health and check it returns 200',
    'Fill out the signup form but do not submit it',
    'Open the cart and proceed to checkout',
  ])('%j is runnable', async (task) => {
    const result = await interpret(task);

    expect(result).toEqual({ kind: 'runnable', task, assumptions: expect.any(Array), plan: expect.objectContaining({ steps: expect.any(Array) }) });
  });
});

describe('rule planner: several clauses', () => {
  it('asks only about the actions among reads, in the order they appear', async () => {
    const result = await interpret(
      'Check that the Buy button is visible, then email the receipt to ops@example.com and delete the test order.',
    );

    expect(questionsOf(result)).toEqual([question('message'), question('delete')]);
    expect(result.kind === 'needs_clarification' && result.ambiguities).toEqual([
      'Sending a message, email or notification reaches real people: "email the receipt to ops@example.com".',
      'Deleting or removing data cannot be undone: "delete the test order".',
    ]);
  });

  it('asks once per kind, quoting every clause of that kind', async () => {
    const result = await interpret('Delete the first invoice, remove the second one and buy a mug.');

    expect(questionsOf(result)).toEqual([question('delete'), question('purchase')]);
    expect(result.kind === 'needs_clarification' && result.ambiguities[0]).toBe(
      'Deleting or removing data cannot be undone: "Delete the first invoice", "remove the second one".',
    );
  });

  it('orders questions by where their trigger first appears, not by the table', async () => {
    const result = await interpret('Invite bob@example.com; then pay the invoice; then post publicly about it');

    expect(questionsOf(result)).toEqual([question('invite'), question('purchase'), question('publish')]);
  });
});

describe('rule planner: vague tasks', () => {
  it.each(['', '   ', 'test the site', 'Check everything.', 'make sure it works', 'do QA', 'Please test https://shop.example.com', 'Find bugs', 'Does the app work?', 'Run all the tests'])(
    '%j asks what to check',
    async (task) => {
      const result = await interpret(task);

      expect(result.kind).toBe('needs_clarification');
      expect(questionsOf(result)).toEqual([VAGUE_QUESTION]);
    },
  );

  it('asks what to check first, then about the side effect, for a bare side-effect word', async () => {
    const result = await interpret('Delete account');

    expect(questionsOf(result)).toEqual([VAGUE_QUESTION, question('delete')]);
  });

  it('is resolved by an answer that says what to check, which is then read for side effects too', async () => {
    const readOnly = taskWithAnswers('test the site', {
      questions: [VAGUE_QUESTION],
      answers: ['the pricing page lists three plans'],
    });
    const acting = taskWithAnswers('test the site', {
      questions: [VAGUE_QUESTION],
      answers: ['buy a mug and check the receipt'],
    });

    expect(await interpret(readOnly)).toMatchObject({ kind: 'runnable', task: readOnly });
    expect(questionsOf(await interpret(acting))).toEqual([question('purchase')]);
  });

  it.each(['everything', 'yes', 'not sure', ''])('is not resolved by the answer %j', async (answer) => {
    const task = taskWithAnswers('test the site', { questions: [VAGUE_QUESTION], answers: [answer] });

    expect(questionsOf(await interpret(task))).toEqual([VAGUE_QUESTION]);
  });
});

describe('rule planner: answers', () => {
  const TASK = 'Buy the cheapest item with the saved card';

  it.each(['yes, place a real order in the test shop', 'no — stop before paying', 'No', 'ok, use the Visa test card'])(
    'resolves the question with %j and records the answer as an assumption',
    async (answer) => {
      const task = taskWithAnswers(TASK, { questions: [question('purchase')], answers: [answer] });

      const result = await interpret(task);

      expect(result.kind).toBe('runnable');
      expect(result.assumptions).toContain(`Answered ${JSON.stringify(answer)} to ${JSON.stringify(question('purchase'))}`);
      expect(result).toMatchObject({ task });
    },
  );

  it.each(['', '?', '  ', 'not sure', 'Not sure.', 'I don’t know', "i dont know", 'maybe', 'Maybe?', 'idk', 'hmm, not sure yet', 'up to you', 'N/A'])(
    'asks again after the evasive answer %j, saying the answer did not decide it',
    async (answer) => {
      const task = taskWithAnswers(TASK, { questions: [question('purchase')], answers: [answer] });

      const result = await interpret(task);

      expect(questionsOf(result)).toEqual([question('purchase')]);
      expect(result.kind === 'needs_clarification' && result.ambiguities[0]).toContain(
        `The earlier answer ${JSON.stringify(answer)} does not decide it.`,
      );
    },
  );

  it('keeps asking only what is still open when some answers resolve and others evade', async () => {
    const task = taskWithAnswers('Delete the old invoice and email the new one to the customer', {
      questions: [question('delete'), question('message')],
      answers: ['yes, it is demo data', "I don't know"],
    });

    const result = await interpret(task);

    expect(questionsOf(result)).toEqual([question('message')]);
    expect(result.assumptions).toContain(`Answered "yes, it is demo data" to ${JSON.stringify(question('delete'))}`);
  });

  it('reads every round: a later round answers what an earlier one left open', async () => {
    const first = taskWithAnswers('Delete the old invoice and email the new one to the customer', {
      questions: [question('delete'), question('message')],
      answers: ['yes, it is demo data', 'maybe'],
    });
    const second = taskWithAnswers(first, { questions: [question('message')], answers: ['only to qa@example.com'] });

    const result = await interpret(second);

    expect(result.kind).toBe('runnable');
    expect(result.assumptions).toEqual(
      expect.arrayContaining([
        `Answered "yes, it is demo data" to ${JSON.stringify(question('delete'))}`,
        `Answered "only to qa@example.com" to ${JSON.stringify(question('message'))}`,
        'Side effects other than those answered above are avoided.',
      ]),
    );
  });

  it('ignores answers to questions it did not ask', async () => {
    const task = taskWithAnswers('Delete the demo account', { questions: ['Is it sunny?'], answers: ['yes'] });

    expect(questionsOf(await interpret(task))).toEqual([question('delete')]);
  });
});

describe('rule planner: assumptions', () => {
  it('states the target, the test values by name, and that a plain check is read-only', async () => {
    const result = await interpret('Check that the pricing page lists three plans');

    expect(result.assumptions).toEqual([
      'Runs against the given baseUrl and the hosts of networkAllowlist only.',
      'Uses the configured test values (demo_user, demo_password) where the task needs credentials or inputs; their values are never shown.',
      'Read-only: the run does not create, change or delete stored data, upload or export data, send, invite or publish, buy, pay or transfer money, grant or revoke access, book or schedule, sign up users or submit forms.',
    ]);
  });

  it('says so when no test values are configured', async () => {
    const result = await planner.interpret('Delete the demo account', { testValueNames: [], evidenceCriteria: [] });

    expect(result.assumptions).toContain('No test values are configured, so the run uses no stored credentials or inputs.');
  });
});
