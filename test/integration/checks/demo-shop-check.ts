/**
 * The demo shop's purchase as a compiled check (test/fixtures/demo-app): the steps of a passing run with the
 * locators the runner resolved, and the repository refs that name where its test values and probe live.
 */
import { compiledCheckSchema } from '../../../src/core/check.js';

const button = (name: string) => ({ strategy: 'role', role: 'button', name, exact: false }) as const;

export const DEMO_SHOP_CHECK = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Go to the sign-in page', url: '/login' } },
    {
      step: { action: 'fill', description: 'Type the demo email into Email', target: { by: 'label', name: 'Email' }, value: { kind: 'testValue', name: 'demoEmail' } },
      locator: { strategy: 'label', name: 'Email', exact: false },
    },
    {
      step: { action: 'fill', description: 'Type the demo password into Password', target: { by: 'label', name: 'Password' }, value: { kind: 'testValue', name: 'demoPassword' } },
      locator: { strategy: 'label', name: 'Password', exact: false },
    },
    { step: { action: 'click', description: 'Click Sign in', target: { by: 'role', role: 'button', name: 'Sign in' } }, locator: button('Sign in') },
    { step: { action: 'expectUrl', description: 'The products page is open', contains: '/products', criterion: 'signed_in' } },
    { step: { action: 'click', description: 'Add the Desk Lamp to the cart', target: { by: 'role', role: 'button', name: 'Add Desk Lamp to cart' } }, locator: button('Add Desk Lamp to cart') },
    { step: { action: 'navigate', description: 'Open the cart', url: '/cart' } },
    {
      step: { action: 'fill', description: 'Type SAVE10 into Coupon', target: { by: 'label', name: 'Coupon' }, value: { kind: 'literal', text: 'SAVE10' } },
      locator: { strategy: 'label', name: 'Coupon', exact: false },
    },
    { step: { action: 'click', description: 'Click Apply', target: { by: 'text', name: 'Apply' } }, locator: button('Apply') },
    { step: { action: 'expectText', description: 'The total shows $90', text: 'Total: $90', criterion: 'total_shows_90' } },
    { step: { action: 'click', description: 'Click Checkout', target: { by: 'text', name: 'Checkout' } }, locator: button('Checkout') },
    { step: { action: 'click', description: 'Click Place order', target: { by: 'text', name: 'Place order' } }, locator: button('Place order') },
    { step: { action: 'expectText', description: 'The order is confirmed', text: 'confirmed', criterion: 'order_confirmed' } },
    { step: { action: 'probe', description: 'The probe finds the order', criterion: 'order_created' } },
  ],
  successCriteria: [
    { key: 'signed_in', description: 'The demo user is signed in' },
    { key: 'total_shows_90', description: 'The total shows $90 after the coupon' },
    { key: 'order_confirmed', description: 'The order is confirmed' },
    { key: 'order_created', description: 'The order exists' },
  ],
});

/** As a repository configures them: semantic name → environment variable name, criterion → its probe's refs. */
export const DEMO_SHOP_REFS = {
  testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD', probeUrl: 'PROBE_URL', probeToken: 'PROBE_TOKEN' },
  evidenceProbeRefs: { order_created: { urlValueRef: 'probeUrl', tokenValueRef: 'probeToken' } },
};

/**
 * A walk through the demo shop that uses the step kinds the purchase does not: a key press on a field and on the
 * page, waiting for an element, field validity, element states, a hidden target, counts with and without a stored
 * locator and of the items in a list, and text inside an element. (The shop has no select, checkbox or disabled control.) No probe, no order.
 */
export const DEMO_SHOP_TOUR = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Go to the sign-in page', url: '/login' } },
    { step: { action: 'expectState', description: 'Email is invalid while empty', target: { by: 'label', name: 'Email' }, state: 'invalid' }, locator: { strategy: 'label', name: 'Email', exact: false } },
    {
      step: { action: 'fill', description: 'Type the demo email into Email', target: { by: 'label', name: 'Email' }, value: { kind: 'testValue', name: 'demoEmail' } },
      locator: { strategy: 'label', name: 'Email', exact: false },
    },
    { step: { action: 'expectState', description: 'Email is valid now', target: { by: 'label', name: 'Email' }, state: 'valid' }, locator: { strategy: 'label', name: 'Email', exact: false } },
    {
      step: { action: 'fill', description: 'Type the demo password into Password', target: { by: 'label', name: 'Password' }, value: { kind: 'testValue', name: 'demoPassword' } },
      locator: { strategy: 'label', name: 'Password', exact: false },
    },
    { step: { action: 'press', description: 'Press Enter in Password', key: 'Enter', target: { by: 'label', name: 'Password' } }, locator: { strategy: 'label', name: 'Password', exact: false } },
    { step: { action: 'expectUrl', description: 'The products page is open', contains: '/products' } },
    { step: { action: 'waitFor', description: 'Wait for the Desk Lamp', target: { by: 'role', role: 'heading', name: 'Desk Lamp' } }, locator: { strategy: 'role', role: 'heading', name: 'Desk Lamp', exact: true } },
    { step: { action: 'expectCount', description: 'Three add-to-cart buttons', target: { by: 'role', role: 'button', name: 'to cart' }, count: 3 }, locator: { strategy: 'role', role: 'button', name: 'to cart', exact: false } },
    { step: { action: 'expectCount', description: 'Three "to cart" texts', target: { by: 'text', name: 'to cart' }, count: 3 } },
    { step: { action: 'expectState', description: 'No Sign in any more', target: { by: 'text', name: 'Sign in' }, state: 'hidden' } },
    { step: { action: 'expectState', description: 'Sign out is shown', target: { by: 'role', role: 'button', name: 'Sign out' }, state: 'visible' }, locator: { strategy: 'role', role: 'button', name: 'Sign out', exact: false } },
    { step: { action: 'expectState', description: 'Sign out is enabled', target: { by: 'role', role: 'button', name: 'Sign out' }, state: 'enabled' }, locator: { strategy: 'role', role: 'button', name: 'Sign out', exact: false } },
    { step: { action: 'expectText', description: 'The mug heading names it', text: 'BLUE MUG', target: { by: 'role', role: 'heading', name: 'Blue Mug' } }, locator: { strategy: 'role', role: 'heading', name: 'Blue Mug', exact: false } },
    { step: { action: 'press', description: 'Press Escape', key: 'Escape' } },
    // One case only ("desk lamp"): case is not the person's point, spacing neither (src/core/text-case.ts).
    { step: { action: 'expectText', description: 'The page shows the lamp, however spaced and cased', text: '  desk \n  lamp ' } },
    { step: { action: 'navigate', description: 'Open the pricing page', url: '/pricing' } },
    {
      step: { action: 'expectCount', description: 'Three plans in the Plans list', target: { by: 'role', role: 'list', name: 'Plans' }, itemRole: 'listitem', count: 3 },
      locator: { strategy: 'role', role: 'list', name: 'Plans', exact: false },
    },
  ],
  successCriteria: [],
});
