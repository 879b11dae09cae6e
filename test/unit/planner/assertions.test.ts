import { describe, expect, it } from '@jest/globals';
import { button, field, heading, link, literal, navigate, planFor, planOf, questionsOf, stepsOf, text, type Bare } from './plan-support.js';

const list = (name: string) => ({ by: 'role', role: 'list', name, exact: false }) as const;
const count = (name: string, n: number, criterion: string): Bare => ({ action: 'expectCount', target: list(name), itemRole: 'listitem', count: n, criterion });

describe('assertions: the page shows text', () => {
  it.each<[string, string, string]>([
    ['check that the total shows $90', '$90', 'total_shows_90'],
    ['Check that the total shows $90.', '$90', 'total_shows_90'],
    ['verify the total is $90', '$90', 'total_90'],
    ['make sure the total should show $90', '$90', 'total_should_show_90'],
    ['Confirm the order total is $42.00', '$42.00', 'order_total_42_00'],
    ["make sure the page says 'Order confirmed'", 'Order confirmed', 'page_says_order_confirmed'],
    ['make sure the page says "Order confirmed"', 'Order confirmed', 'page_says_order_confirmed'],
    ['ensure the page shows “Total: $90”', 'Total: $90', 'page_shows_total_90'],
    ['the page says "Coupon SAVE10 applied: 10% off"', 'Coupon SAVE10 applied: 10% off', 'page_says_coupon_save10_applied_10_off'],
    ['expect the page to show "Your cart is empty."', 'Your cart is empty.', 'page_to_show_your_cart_empty'],
    ['verify its status is Shipped', 'Shipped', 'its_status_shipped'],
    ['the subtotal reads $100', '$100', 'subtotal_reads_100'],
    ['check that it says Welcome back', 'Welcome back', 'it_says_welcome_back'],
  ])('%j expects the text %j with criterion %s', (task, shown, criterion) => {
    expect(stepsOf(task)).toEqual([{ action: 'expectText', text: shown, criterion }]);
  });

  it('scopes the text to a named element', () => {
    expect(stepsOf("check that the Total heading says '$90'")).toEqual([
      { action: 'expectText', text: '$90', target: heading('Total'), criterion: 'total_heading_says_90' },
    ]);
  });

  it('reads "the button says X" as one of the buttons showing X, so that a failure can list what they show', () => {
    expect(stepsOf("Verify the button says 'Buy now'")).toEqual([{ action: 'expectText', text: 'Buy now', role: 'button', criterion: 'button_says_buy_now' }]);
  });

  it('reads "does not show" as the text being hidden', () => {
    expect(stepsOf('make sure the page does not show "Error"')).toEqual([
      { action: 'expectState', target: text('Error', true), state: 'hidden', criterion: 'page_does_not_show_error' },
    ]);
  });

  it('opens the page an assertion names when the plan has not been anywhere', () => {
    expect(stepsOf('Verify the checkout page shows "Place order"')).toEqual([
      navigate('/checkout'),
      { action: 'expectText', text: 'Place order', criterion: 'checkout_page_shows_place_order' },
    ]);
  });

  it('says how it read a text it had to guess at', () => {
    const result = planOf('Verify the checkout page shows the shipping cost');

    expect(result).toMatchObject({
      kind: 'plan',
      plan: { steps: [navigate('/checkout'), { action: 'expectText', text: 'shipping cost' }] },
      assumptions: ['Reads "the checkout page shows the shipping cost" as: the page shows the text "shipping cost".'],
    });
  });
});

describe('assertions about an element that is there: its text, the title, a field value, a list count', () => {
  it.each<[string, Bare]>([
    ['check that the heading says "Gadgets Galore"', { action: 'expectText', text: 'Gadgets Galore', role: 'heading', criterion: 'heading_says_gadgets_galore' }],
    ["verify the heading reads 'Pricing'", { action: 'expectText', text: 'Pricing', role: 'heading', criterion: 'heading_reads_pricing' }],
    ['check that the main heading is "Pricing"', { action: 'expectText', text: 'Pricing', role: 'heading', criterion: 'main_heading_pricing' }],
    ['check the heading Pricing', { action: 'expectText', text: 'Pricing', role: 'heading', criterion: 'heading_pricing' }],
    ['verify the main heading Order history', { action: 'expectText', text: 'Order history', role: 'heading', criterion: 'main_heading_order_history' }],
    ['check that the heading Pricing is visible', { action: 'expectState', target: heading('Pricing'), state: 'visible', criterion: 'heading_pricing_visible' }],
    ['make sure the page heading says Welcome', { action: 'expectText', text: 'Welcome', role: 'heading', criterion: 'page_heading_says_welcome' }],
    ['the link says "Pricing"', { action: 'expectText', text: 'Pricing', role: 'link', criterion: 'link_says_pricing' }],
    ['check that the title is "Gadgets Galore"', { action: 'expectTitle', text: 'Gadgets Galore', criterion: 'title_gadgets_galore' }],
    ['check that the page title says Demo Shop', { action: 'expectTitle', text: 'Demo Shop', criterion: 'page_title_says_demo_shop' }],
    ["verify the tab title contains 'Pricing'", { action: 'expectTitle', text: 'Pricing', criterion: 'tab_title_contains_pricing' }],
    ['check that the Email field contains "demo@example.test"', { action: 'expectValue', target: field('Email'), text: 'demo@example.test', criterion: 'email_field_contains_demo_example_test' }],
    ['check that the value of the Quantity field is 2', { action: 'expectValue', target: field('Quantity'), text: '2', criterion: 'value_of_quantity_field_2' }],
    ["verify the Coupon field's value is \"SAVE10\"", { action: 'expectValue', target: field('Coupon'), text: 'SAVE10', criterion: 'coupon_fields_value_save10' }],
    ['the Coupon input has the value "SAVE10"', { action: 'expectValue', target: field('Coupon'), text: 'SAVE10', criterion: 'coupon_input_has_value_save10' }],
    ['check that the Coupon field is empty', { action: 'expectValue', target: field('Coupon'), text: '', criterion: 'coupon_field_empty' }],
    ['the search box shows "mugs"', { action: 'expectValue', target: field('search'), text: 'mugs', criterion: 'search_box_shows_mugs' }],
  ])('%j', (task, step) => {
    expect(stepsOf(task)).toEqual([step]);
  });

  it('counts the items of the list a count names by its place, not a list named "items"', () => {
    expect(stepsOf('check that the Plans list has 4 items')).toEqual([count('Plans', 4, 'plans_list_has_4_items')]);
    expect(stepsOf('there are 2 entries in the Plans list')).toEqual([count('Plans', 2, 'there_2_entries_in_plans_list')]);
    expect(planFor('check that the Plans list has 4 items').steps[0].description).toBe('Expect 4 items in the "Plans" list');
  });

  it('keeps a heading named by the task as the element whose text is checked', () => {
    expect(stepsOf("check that the Total heading says '$90'")).toEqual([{ action: 'expectText', text: '$90', target: heading('Total'), criterion: 'total_heading_says_90' }]);
  });

  it('says what the new steps check in their descriptions', () => {
    expect(planFor('check that the heading says "Gadgets Galore"').steps[0].description).toBe('Expect a heading to show "Gadgets Galore"');
    expect(planFor('check that the title is "Gadgets Galore"').steps[0].description).toBe('Expect the page title to contain "Gadgets Galore"');
    expect(planFor('check that the Email field contains "x@y.test"').steps[0].description).toBe('Expect the "Email" field to hold "x@y.test"');
    expect(planFor('check that the Coupon field is empty').steps[0].description).toBe('Expect the "Coupon" field to be empty');
  });
});

describe('assertions: the URL', () => {
  it.each<[string, string, string]>([
    ['verify the URL contains /orders', '/orders', 'url_contains_orders'],
    ['check that the url includes "/orders/ORD-"', '/orders/ORD-', 'url_includes_orders_ord'],
    ['expect the URL to contain /orders', '/orders', 'url_to_contain_orders'],
    ['make sure the current URL ends with /cart', '/cart', 'current_url_ends_with_cart'],
    ['verify I am redirected to /login', '/login', 'i_am_redirected_to_login'],
    ['the browser ends up on /products', '/products', 'browser_ends_up_on_products'],
  ])('%j expects the URL to contain %j', (task, contains, criterion) => {
    expect(stepsOf(task)).toEqual([{ action: 'expectUrl', contains, criterion }]);
  });

  it('lands on a named page when the URL says its path or the page shows its name', () => {
    expect(stepsOf('check that we land on the orders page')).toEqual([{ action: 'expectUrl', contains: '/orders', page: 'orders', criterion: 'we_land_on_orders_page' }]);
  });
});

describe('assertions: element states', () => {
  it.each<[string, Bare]>([
    ['the Plans heading is visible', { action: 'expectState', target: heading('Plans'), state: 'visible', criterion: 'plans_heading_visible' }],
    ['check that the Buy button is visible', { action: 'expectState', target: button('Buy'), state: 'visible', criterion: 'buy_button_visible' }],
    ['the Place order button is disabled', { action: 'expectState', target: button('Place order'), state: 'disabled', criterion: 'place_order_button_disabled' }],
    ['make sure the "Place order" button should be enabled', { action: 'expectState', target: button('Place order', true), state: 'enabled', criterion: 'place_order_button_should_be_enabled' }],
    ['verify the Apply button is greyed out', { action: 'expectState', target: button('Apply'), state: 'disabled', criterion: 'apply_button_greyed_out' }],
    ['the Sign out button is not visible', { action: 'expectState', target: button('Sign out'), state: 'hidden', criterion: 'sign_out_button_not_visible' }],
    ["the Sign out button isn't shown", { action: 'expectState', target: button('Sign out'), state: 'hidden', criterion: 'sign_out_button_isn_t_shown' }],
    ['check that the Remember me checkbox is checked', { action: 'expectState', target: { by: 'role', role: 'checkbox', name: 'Remember me', exact: false }, state: 'checked', criterion: 'remember_me_checkbox_checked' }],
    ['the Newsletter checkbox is unchecked', { action: 'expectState', target: { by: 'role', role: 'checkbox', name: 'Newsletter', exact: false }, state: 'unchecked', criterion: 'newsletter_checkbox_unchecked' }],
    ['the Pricing link appears', { action: 'expectState', target: link('Pricing'), state: 'visible', criterion: 'pricing_link_appears' }],
    ['the FAQ is visible', { action: 'expectState', target: text('FAQ'), state: 'visible', criterion: 'faq_visible' }],
    ['"Desk Lamp added to your cart." is shown', { action: 'expectState', target: text('Desk Lamp added to your cart.', true), state: 'visible', criterion: 'desk_lamp_added_to_your_cart_shown' }],
    ['there is a Checkout button', { action: 'expectState', target: button('Checkout'), state: 'visible', criterion: 'there_checkout_button' }],
    ['there is no Checkout button', { action: 'expectState', target: button('Checkout'), state: 'hidden', criterion: 'there_no_checkout_button' }],
    ['make sure the Publish button is hidden for viewers', { action: 'expectState', target: button('Publish'), state: 'hidden', criterion: 'publish_button_hidden_for_viewers' }],
    ['check the footer links to the privacy policy', { action: 'expectState', target: link('privacy policy'), state: 'visible', criterion: 'footer_links_to_privacy_policy' }],
  ])('%j', (task, step) => {
    expect(stepsOf(task)).toEqual([step]);
  });

  it('opens the page a state is checked on', () => {
    expect(stepsOf('Check that Apple Pay is offered on the payment page')).toEqual([
      navigate('/payment'),
      { action: 'expectState', target: text('Apple Pay'), state: 'visible', criterion: 'apple_pay_offered_on_payment_page' },
    ]);
  });

  it('checks a field rejects or accepts a value by typing it and reading its validity', () => {
    expect(stepsOf('Make sure the email field rejects "abc"')).toEqual([
      { action: 'fill', target: field('email'), value: literal('abc') },
      { action: 'expectState', target: field('email'), state: 'invalid', criterion: 'email_field_rejects_abc' },
    ]);
    expect(stepsOf('check that the Email field accepts demo@example.test')).toEqual([
      { action: 'fill', target: field('Email'), value: literal('demo@example.test') },
      { action: 'expectState', target: field('Email'), state: 'valid', criterion: 'email_field_accepts_demo_example_test' },
    ]);
  });
});

describe('assertions: counts', () => {
  it.each<[string, Bare[]]>([
    ['expect 3 plans', [count('plans', 3, '3_plans')]],
    ['expect three plans', [count('plans', 3, 'three_plans')]],
    ['Check that the pricing page lists three plans', [navigate('/pricing'), count('plans', 3, 'pricing_page_lists_three_plans')]],
    ['the pricing page lists 3 plans', [navigate('/pricing'), count('plans', 3, 'pricing_page_lists_3_plans')]],
    ['there are exactly twelve products', [count('products', 12, 'there_exactly_twelve_products')]],
    ['Order history shows three orders', [count('orders', 3, 'order_history_shows_three_orders')]],
    ['check two pending invites are listed', [count('pending invites', 2, 'two_pending_invites_listed')]],
    ['check ten results show', [count('results', 10, 'ten_results_show')]],
    ['verify there are 3 plans on the pricing page', [navigate('/pricing'), count('plans', 3, 'there_3_plans_on_pricing_page')]],
    ['the cart has one item', [navigate('/cart'), count('item', 1, 'cart_has_one_item')]],
  ])('%j', (task, steps) => {
    expect(stepsOf(task)).toEqual(steps);
  });

  it('does not count money or units', () => {
    expect(stepsOf('check that the total shows 90 dollars')).toEqual([{ action: 'expectText', text: '90 dollars', criterion: 'total_shows_90_dollars' }]);
  });

  it('describes the count as items of the named list', () => {
    expect(planFor('expect 3 plans').steps[0].description).toBe('Expect 3 items in the "plans" list');
  });
});

describe('assertions: pages that load', () => {
  it.each<[string, string, string, string]>([
    ['Check the refund policy page loads', '/refund-policy', 'refund_policy_page_loads', 'refund policy'],
    ['Make sure the Sign up page loads', '/signup', 'sign_up_page_loads', 'Sign up'],
    ['verify the pricing page works', '/pricing', 'pricing_page_works', 'pricing'],
    ['the pricing page should load without errors', '/pricing', 'pricing_page_should_load_without_errors', 'pricing'],
  ])('%j opens %s and expects to be there', (task, url, criterion, page) => {
    expect(stepsOf(task)).toEqual([navigate(url), { action: 'expectUrl', contains: url, page, criterion }]);
  });

  it('after a click, looks at the page it led to instead of opening it again', () => {
    expect(stepsOf('click Checkout and check that the Checkout: Your Information page opens')).toEqual([
      { action: 'click', target: { by: 'role', role: 'button', name: 'Checkout', exact: false } },
      { action: 'expectUrl', contains: '/checkout-your-information', page: 'Checkout: Your Information', criterion: 'checkout_your_information_page_opens' },
    ]);
  });

  it.each<[string, string, string, string]>([
    ['press Save and check that the Dashboard page shows', '/dashboard', 'Dashboard', 'dashboard_page_shows'],
    ['click Next, then make sure the Shipping page appears', '/shipping', 'Shipping', 'shipping_page_appears'],
    ['submit the form and verify that the confirmation page comes up', '/confirmation', 'confirmation', 'confirmation_page_comes_up'],
    ['click Back and check that it takes you back to the Orders page', '/orders', 'Orders', 'it_takes_you_back_to_orders_page'],
    ['click Home; check that it brings you to the Welcome page', '/welcome', 'Welcome', 'it_brings_you_to_welcome_page'],
    ['tap Done and confirm you are brought back to the Inbox page', '/inbox', 'Inbox', 'you_brought_back_to_inbox_page'],
  ])('%j looks at the page a click led to (%s)', (task, contains, page, criterion) => {
    // "back to the Orders page" may also be the page before the one just left (src/browser/page-history.ts).
    expect(stepsOf(task).at(-1)).toEqual({ action: 'expectUrl', contains, page, criterion, ...(/\bback\b/.test(task) ? { reached: 'back' } : {}) });
  });

  it('leaves "appears" of an element that is not a page to the element readers', () => {
    expect(stepsOf('check that the error message appears')).toEqual([{ action: 'expectState', target: text('error message'), state: 'visible', criterion: 'error_message_appears' }]);
  });

  it('does not open a page it has just opened', () => {
    expect(stepsOf('go to /pricing and check the pricing page loads')).toEqual([
      navigate('/pricing'),
      { action: 'expectUrl', contains: '/pricing', page: 'pricing', criterion: 'pricing_page_loads' },
    ]);
  });

  it('reads "it returns 200" as the page it just opened opening', () => {
    expect(stepsOf('Send a GET request to /health and check it returns 200')).toEqual([
      navigate('/health'),
      { action: 'expectUrl', contains: '/health', criterion: 'it_returns_200' },
    ]);
  });
});

describe('assertions: criteria', () => {
  it('gives every assertion a criterion with a stable key and its words as the description', () => {
    const plan = planFor('check that the total shows $90 and make sure the page says "Order confirmed"');

    expect(plan.successCriteria).toEqual([
      { key: 'total_shows_90', description: 'the total shows $90' },
      { key: 'page_says_order_confirmed', description: 'the page says "Order confirmed"' },
    ]);
    expect(planFor('check that the total shows $90').successCriteria[0].key).toBe('total_shows_90');
  });

  it('keeps keys unique when two assertions share their words', () => {
    const plan = planFor('check that the total shows $90, go to /checkout and check that the total shows $90');

    expect(plan.successCriteria.map((criterion) => criterion.key)).toEqual(['total_shows_90', 'total_shows_90_2']);
    expect(plan.steps.filter((step) => step.action === 'expectText').map((step) => 'criterion' in step && step.criterion)).toEqual([
      'total_shows_90',
      'total_shows_90_2',
    ]);
  });

  it('keeps a long key within its limit', () => {
    const plan = planFor(`check that the page says "${'very long words '.repeat(20).trim()}"`);

    expect(plan.successCriteria[0].key.length).toBeLessThanOrEqual(60);
  });
});

describe('assertions: evidence probes', () => {
  it.each<[string, string[], string]>([
    ['verify the order through the probe', ['order_created'], 'order_created'],
    ['the order exists', ['order_created'], 'order_created'],
    ['check that the order was placed', ['order_created'], 'order_created'],
    ['verify the order is created in the backend', ['order_created'], 'order_created'],
    ['confirm the evidence probe passes', ['order_created'], 'order_created'],
    ['check that the order exists', ['orderExists'], 'orderExists'],
    ['make sure the order is stored in the database', ['order-saved'], 'order-saved'],
    ['verify the order was placed', ['order_placed', 'refund_issued'], 'order_placed'],
    ['verify the refund through the probe', ['order_placed', 'refund_issued'], 'refund_issued'],
    ['verify the order total through the probe', ['order_created', 'order_total_correct'], 'order_total_correct'],
  ])('%j is a probe step (criteria %j → %s)', (task, criteria, key) => {
    const plan = planFor(task, { evidenceCriteria: criteria });

    expect(plan.steps.map(({ description: _d, ...step }) => step)).toEqual([{ action: 'probe', criterion: key }]);
    expect(plan.successCriteria).toEqual([{ key, description: task }]);
    expect(plan.steps[0].description).toBe(`Verify ${key} with its evidence probe`);
  });

  it('keeps a plain assertion when no criterion matches it', () => {
    expect(stepsOf('check that the total shows $90', { evidenceCriteria: ['order_created'] })).toEqual([
      { action: 'expectText', text: '$90', criterion: 'total_shows_90' },
    ]);
  });

  it('asks which probe when the task mentions one and none is configured', () => {
    expect(questionsOf('verify the order through the probe', { evidenceCriteria: [] })).toEqual([
      'Which evidence probe should verify "verify the order through the probe"? None is configured: add one to the repository\'s evidenceProbeRefs.',
    ]);
  });

  it('asks which probe when several fit equally, and takes the answer that names one', () => {
    const criteria = ['order_created', 'payment_captured'];
    const asked = 'Which evidence probe should verify "verify it through the probe": order_created or payment_captured?';

    expect(questionsOf('verify it through the probe', { evidenceCriteria: criteria })).toEqual([asked]);
    expect(stepsOf('verify it through the probe', { evidenceCriteria: criteria, answerTo: (q) => (q === asked ? 'payment_captured' : undefined) })).toEqual([
      { action: 'probe', criterion: 'payment_captured' },
    ]);
  });

  it('lists a criterion once when it is probed twice', () => {
    const plan = planFor('verify the order through the probe, go to /orders and check the order exists');

    expect(plan.successCriteria).toEqual([{ key: 'order_created', description: 'verify the order through the probe' }]);
    expect(plan.steps.filter((step) => step.action === 'probe')).toHaveLength(2);
  });
});

describe('assertions: clauses with no known shape', () => {
  it.each<[string, string]>([
    ['check the total', 'total'],
    ['verify the warning text', 'warning text'],
    ['check the latest order', 'latest order'],
  ])('%j expects the page to show %j and says that is how it read it', (task, shown) => {
    const result = planOf(task);

    expect(result).toEqual({
      kind: 'plan',
      plan: {
        steps: [{ action: 'expectText', description: `Expect the page to show ${JSON.stringify(shown)}`, text: shown, criterion: expect.any(String) }],
        successCriteria: [expect.objectContaining({ description: shown.startsWith('total') ? 'the total' : expect.any(String) })],
      },
      assumptions: [`Reads "${task}" as: the page shows the text ${JSON.stringify(shown)}.`],
    });
  });
});
