/**
 * What the run-time guard (src/browser/side-effect-guard.ts) reads from a page: a control's accessible name and a
 * writing form's action, through the same policy as a task's words. A control whose name or action names a side
 * effect must be caught; the controls every read-only run clicks (Cancel in a dialog, Sign in, Add to cart,
 * Remove from cart, Apply) must not.
 */
import { describe, expect, it } from '@jest/globals';
import { accessibleName, kindsOfAction, nameProvenBy, phrasesOfPath } from '../../../src/browser/side-effect-guard.js';
import { taskWithAnswers } from '../../../src/core/interpretation.js';
import { allowedSideEffectsOf, planSchema } from '../../../src/core/plan.js';
import { interpretTask } from '../../../src/planner/rule-planner.js';
import { applySideEffectFloor, kindsNamedByLabel } from '../../../src/planner/side-effect-floor.js';
import { SIDE_EFFECTS } from '../../../src/planner/side-effects.js';

const kindsOf = (action: string) => kindsOfAction(action, { kindsNamedBy: kindsNamedByLabel });

describe('labels of controls that cause a side effect', () => {
  it.each([
    ['Cancel subscription', 'account_change'],
    ['Cancel my plan', 'account_change'],
    ['Cancel order', 'purchase'],
    ['Cancel booking', 'purchase'],
    ['Delete', 'delete'],
    ['Delete account', 'delete'],
    ['Remove user', 'delete'],
    ['Deactivate user', 'account_change'],
    ['Disable account', 'account_change'],
    ['Close account', 'account_change'],
    ['Terminate subscription', 'account_change'],
    ['Archive', 'status_change'],
    ['Archive project', 'status_change'],
    ['Revoke', 'status_change'],
    ['Revoke key', 'status_change'],
    ['Refund', 'transfer'],
    ['Refund order', 'transfer'],
    ['Downgrade', 'purchase'],
    ['Downgrade to Starter', 'purchase'],
    ['Unsubscribe', 'account_change'],
    ['Publish', 'publish'],
    ['Send', 'message'],
    ['Send invitation', 'message'],
    ['Invite', 'invite'],
    ['Place order', 'purchase'],
    ['Buy now', 'purchase'],
    ['Pay now', 'purchase'],
    ['Complete purchase', 'purchase'],
    ['Transfer', 'transfer'],
    ['Sign up', 'sign_up'],
    ['Submit', 'form_submission'],
  ])('%j names %s', (label, kind) => {
    expect(kindsNamedByLabel(label)).toContain(kind);
  });
});

describe('labels of controls a read-only run clicks', () => {
  it.each(['Cancel', 'Close', 'OK', 'Sign in', 'Sign out', 'Add Desk Lamp to cart', 'Remove Blue Mug from cart', 'Apply', 'Continue', 'Next', 'Back', 'Search', 'Pricing', 'Keep my plan', 'Dismiss', 'Clear filters', 'Checkout', 'Proceed to checkout', 'Continue Shopping'])(
    '%j names none',
    (label) => {
      expect(kindsNamedByLabel(label)).toEqual([]);
    },
  );
});

describe('form actions', () => {
  it.each([
    ['/account/subscription/cancel', 'account_change'],
    ['https://shop.example/orders/1001/cancel', 'purchase'],
    ['/users/42/delete', 'delete'],
    ['/api/keys/7/revoke', 'status_change'],
    ['/orders/ORD-1001/refund', 'transfer'],
    ['/checkout', 'purchase'],
    ['/newsletter/unsubscribe', 'account_change'],
  ])('%s names %s', (action, kind) => {
    expect(kindsOf(action)).toContain(kind);
  });

  it.each(['/login', '/logout', '/cart/items', '/cart/items/remove', '/cart/coupon', '/search', '/a11y'])('%s names none', (action) => {
    expect(kindsOf(action)).toEqual([]);
  });

  it('says the path verb first, and a removal from a cart as one', () => {
    expect(phrasesOfPath('/account/subscription/cancel')).toContain('cancel account subscription');
    expect(phrasesOfPath('/cart/items/remove')).toContain('remove items from the cart');
  });
});

describe('accessibleName', () => {
  it.each([
    ['- button "Cancel subscription"', 'Cancel subscription'],
    ['- button "Remove Blue Mug from cart" [pressed]', 'Remove Blue Mug from cart'],
    ['- link "Say \\"hi\\""', 'Say "hi"'],
    ['- button', undefined],
    ['', undefined],
  ])('%j → %j', (snapshot, name) => {
    expect(accessibleName(snapshot)).toBe(name);
  });
});

describe('plans carry the side-effect kinds the answers allowed, for the run-time guard', () => {
  const context = { testValueNames: [], evidenceCriteria: [] };
  const kind = (name: string) => SIDE_EFFECTS.find((rule) => rule.kind === name)!.question;

  it('an allowed side effect: only its kind', () => {
    const task = taskWithAnswers('Open /account/subscription and click "Cancel subscription"', { questions: [kind('account_change')], answers: ['Yes, a test workspace'] });
    const result = interpretTask(task, context);

    expect(result).toMatchObject({ kind: 'runnable', plan: { sideEffects: true, allowedSideEffects: ['account_change'] } });
  });

  it('a declined side effect, and a read-only task: none', () => {
    const declined = taskWithAnswers('Open /account/subscription and click "Cancel subscription"', { questions: [kind('account_change')], answers: ['No, stop before that'] });
    for (const task of [declined, 'Open /account/subscription and check that the page says "Plan: Pro"']) {
      const result = interpretTask(task, context);
      if (result.kind !== 'runnable') throw new Error(`expected a plan for ${task}`);
      expect(allowedSideEffectsOf(result.plan)).toEqual([]);
    }
  });

  it("the model's plan: the kinds the floor let through", () => {
    const plan = planSchema.parse({
      steps: [
        { action: 'navigate', description: 'Open the cart', url: '/cart' },
        { action: 'click', description: 'Place the order', target: { by: 'role', role: 'button', name: 'Place order' } },
      ],
      successCriteria: [],
    });
    const floor = applySideEffectFloor(plan, [{ questions: [kind('purchase')], answers: ['Yes'] }]);

    expect(floor).toMatchObject({ kind: 'plan', allowedKinds: ['purchase'] });
  });

  it('a plan written before the list existed: every kind if its answers allowed side effects, else none', () => {
    expect(allowedSideEffectsOf({ sideEffects: true })).toBe('all');
    expect(allowedSideEffectsOf({})).toEqual([]);
    expect(allowedSideEffectsOf({ sideEffects: true, allowedSideEffects: ['purchase'] })).toEqual(['purchase']);
  });

  it('takes a control\'s name from its locator only when an exact role locator for a button or a link proves it', () => {
    expect(nameProvenBy({ strategy: 'role', role: 'button', name: 'Delete account', exact: true })).toBe('Delete account');
    expect(nameProvenBy({ strategy: 'role', role: 'link', name: 'Unsubscribe', exact: true })).toBe('Unsubscribe');
    // A substring match, a text or label locator, or a role whose element may not be its own control: read the page.
    expect(nameProvenBy({ strategy: 'role', role: 'button', name: 'Delete', exact: false })).toBeUndefined();
    expect(nameProvenBy({ strategy: 'text', name: 'Delete account', exact: true })).toBeUndefined();
    expect(nameProvenBy({ strategy: 'label', name: 'Delete account', exact: true })).toBeUndefined();
    expect(nameProvenBy({ strategy: 'role', role: 'option', name: 'Delete account', exact: true })).toBeUndefined();
    expect(nameProvenBy(undefined)).toBeUndefined();
  });
});
