import { describe, expect, it } from '@jest/globals';
import { addTo, button, field, heading, link, literal, navigate, planFor, stepsOf, testValue, text, type Bare } from './plan-support.js';

describe('step grammar: going somewhere', () => {
  it.each<[string, string]>([
    ['go to /pricing', '/pricing'],
    ['Go to /pricing.', '/pricing'],
    ['please navigate to /orders/ORD-1001', '/orders/ORD-1001'],
    ['open the pricing page', '/pricing'],
    ['Open the Pricing page', '/pricing'],
    ['visit the pricing page', '/pricing'],
    ['head over to the pricing page', '/pricing'],
    ['visit https://shop.example.test/pricing?plan=pro', 'https://shop.example.test/pricing?plan=pro'],
    ['open https://shop.example.test', 'https://shop.example.test'],
    ['navigate to the account settings page', '/account-settings'],
    ['go to the home page', '/'],
    ['go to the homepage', '/'],
    ['open the cart', '/cart'],
    ['go to the basket', '/cart'],
    ['view the shopping cart', '/cart'],
    ['proceed to checkout', '/checkout'],
    ['go to checkout', '/checkout'],
    ['go to the login page', '/login'],
    ['go to the Delete account page', '/delete-account'],
    ["look at the user's profile page", '/user-profile'],
    ['check out the new pricing page', '/pricing'],
    ['Send a GET request to /health', '/health'],
    ['then go to the Invitations page', '/invitations'],
  ])('%j goes to %s', (task, url) => {
    expect(stepsOf(task)).toMatchObject([navigate(url)]);
    expect(stepsOf(task)).toHaveLength(1);
  });

  it('keeps the name of a page the task names without a path, for the run to look for it on the live page', () => {
    expect(stepsOf('open the Dropdown List page')).toEqual([{ action: 'navigate', url: '/dropdown-list', page: 'Dropdown List' }]);
    expect(stepsOf('go to /pricing')).toEqual([{ action: 'navigate', url: '/pricing' }]);
    expect(stepsOf('open the cart')).toEqual([{ action: 'navigate', url: '/cart', page: 'cart' }]);
  });

  it('opens a named control with "open" when it is no page', () => {
    expect(stepsOf('Open Order history')).toEqual([{ action: 'click', target: link('Order history') }]);
    expect(stepsOf('open the Settings menu')).toEqual([{ action: 'click', target: button('Settings') }]);
    expect(stepsOf('open the Reviews tab')).toEqual([{ action: 'click', target: { by: 'role', role: 'tab', name: 'Reviews', exact: false } }]);
  });

  it('opens the page of a thing by its link: "the details page of X", "X\'s product page", "its details page"', () => {
    const open = (name: string) => ({ action: 'click', target: link(name) });
    expect(stepsOf('open the details page of the Green Tea')).toEqual([open('Green Tea')]);
    expect(stepsOf("open the Green Tea's product page")).toEqual([open('Green Tea')]);
    expect(stepsOf('put the Green Tea in the basket and open its details page').at(-1)).toEqual(open('Green Tea'));
    expect(stepsOf('open the details page')).toEqual([{ action: 'navigate', url: '/details', page: 'details' }]);
  });

  it('opens an unnamed menu with the button that opens it, wherever the task says it is', () => {
    const menu = (name: string) => [{ action: 'click', target: { by: 'description', role: 'button', name, exact: false } }];
    expect(stepsOf('open the menu')).toEqual(menu('menu'));
    expect(stepsOf('Open the menu at the top left')).toEqual(menu('menu'));
    expect(stepsOf('open the hamburger menu in the top right corner')).toEqual(menu('hamburger menu'));
    expect(stepsOf('open the side navigation')).toEqual(menu('side navigation'));
    expect(stepsOf('open the Account menu in the header')).toEqual([{ action: 'click', target: button('Account') }]);
  });

  it('reads "there" as where the person is, and "on it" as the row of the item spoken of last', () => {
    expect(stepsOf('click "Back to overview" there')).toEqual([{ action: 'click', target: button('Back to overview', true) }]);
    expect(stepsOf('press Archive here')).toEqual([{ action: 'click', target: button('Archive') }]);
    expect(stepsOf("add the todo 'Call Ada', then click Edit on it").at(-1)).toEqual({ action: 'click', target: { ...button('Edit'), within: { text: 'Call Ada' } } });
    expect(stepsOf('put the Red Scarf in the basket, then press Remove on it on the Shop page').at(-1)).toEqual({ action: 'click', target: { ...button('Remove'), within: { text: 'Red Scarf' } } });
  });

  it('keeps what to do instead after a limit and a colon, and leaves out only the limit', () => {
    expect(stepsOf("Don't send the invoice: click Save draft")).toEqual([{ action: 'click', target: button('Save draft') }]);
    expect(stepsOf('do not delete the project')).toEqual([{ action: 'navigate', url: '/' }]);
  });

  it('reads "on the X page" before a step as where it happens, and keeps the step', () => {
    expect(stepsOf('On the "Review your order" page click Save draft')).toEqual([{ action: 'click', target: button('Save draft') }]);
    expect(stepsOf('on the summary screen press Edit')).toEqual([{ action: 'click', target: button('Edit') }]);
  });

  it('reads "start the checkout" as the control that starts it, whatever the page calls it', () => {
    expect(stepsOf('start the checkout')).toEqual([{ action: 'click', target: { by: 'description', role: 'button', name: 'Start checkout', exact: false } }]);
  });

  it.each<[string, Bare]>([
    ['wait for the Order confirmed heading', { action: 'waitFor', target: heading('Order confirmed') }],
    ["wait for 'Order placed' to appear", { action: 'waitFor', target: text('Order placed', true) }],
    ['wait until the Checkout button is visible', { action: 'waitFor', target: button('Checkout') }],
    ['wait for the spinner dialog', { action: 'waitFor', target: { by: 'role', role: 'dialog', name: 'spinner', exact: false } }],
  ])('%j waits', (task, step) => {
    expect(stepsOf(task)).toEqual([step]);
  });

  it('adds no step for "wait for the page to load": every step waits by itself', () => {
    const plan = planFor('go to /pricing and wait for the page to load');

    expect(plan.steps.map((step) => step.action)).toEqual(['navigate']);
  });
});

describe('step grammar: clicking and pressing', () => {
  it.each<[string, Bare]>([
    ['click Apply', { action: 'click', target: button('Apply') }],
    ['Click "Apply"', { action: 'click', target: button('Apply', true) }],
    ["click the 'Sign in' button", { action: 'click', target: button('Sign in', true) }],
    ['click the “Sign in” button', { action: 'click', target: button('Sign in', true) }],
    ['click the Sign in button', { action: 'click', target: button('Sign in') }],
    ['click on the Sign in button', { action: 'click', target: button('Sign in') }],
    ['tap Continue', { action: 'click', target: button('Continue') }],
    ['press the Checkout button', { action: 'click', target: button('Checkout') }],
    ['hit the Apply btn', { action: 'click', target: button('Apply') }],
    ['follow the Pricing link', { action: 'click', target: link('Pricing') }],
    ['follow Pricing', { action: 'click', target: link('Pricing') }],
    ['click the Pricing link', { action: 'click', target: link('Pricing') }],
    ['click the link called "Terms and conditions"', { action: 'click', target: link('Terms and conditions', true) }],
    ['click the button labelled Save draft', { action: 'click', target: button('Save draft') }],
    ['click the button that says "Load more"', { action: 'click', target: button('Load more', true) }],
    ['click the Reviews tab', { action: 'click', target: { by: 'role', role: 'tab', name: 'Reviews', exact: false } }],
    ['click the Express radio button', { action: 'click', target: { by: 'role', role: 'radio', name: 'Express', exact: false } }],
    ['click Apply in the coupon form', { action: 'click', target: button('Apply') }],
    ['click "Sign in and pay"', { action: 'click', target: button('Sign in and pay', true) }],
    ['check out', { action: 'click', target: button('Checkout') }],
    ['Check out the cart', { action: 'click', target: button('Checkout') }],
    ['checkout now', { action: 'click', target: button('Checkout') }],
  ])('%j clicks', (task, step) => {
    expect(stepsOf(task)).toEqual([step]);
  });

  it.each<[string, Bare[]]>([
    ['add Blue Mug to cart', [{ action: 'click', target: addTo('cart', 'Blue Mug') }]],
    ['add the Desk Lamp to the cart', [{ action: 'click', target: addTo('cart', 'Desk Lamp') }]],
    ['Add a hat to the cart', [{ action: 'click', target: addTo('cart', 'hat') }]],
    ['put the Notebook in the basket', [{ action: 'click', target: addTo('basket', 'Notebook') }]],
    ["add 'Blue Mug' to my cart", [{ action: 'click', target: addTo('cart', 'Blue Mug') }]],
    ['add the Desk Lamp', [{ action: 'click', target: addTo('cart', 'Desk Lamp') }]],
    ['add two Notebooks to the cart', [{ action: 'click', target: addTo('cart', 'Notebook') }, { action: 'click', target: addTo('cart', 'Notebook') }]],
    ['add the Desk Lamp to the wishlist', [{ action: 'click', target: addTo('wishlist', 'Desk Lamp') }]],
    ['put the third product in the shopping bag', [{ action: 'click', target: { by: 'description', role: 'button', name: 'Add to bag', exact: false, nth: 3 } }]],
    ['add the last item on the page to my favourites', [{ action: 'click', target: { by: 'description', role: 'button', name: 'Add to favourites', exact: false, nth: -1 } }]],
    ['remove the Desk Lamp from the cart', [{ action: 'click', target: button('Remove Desk Lamp') }]],
    ['remove the first item from the cart', [{ action: 'click', target: button('Remove') }]],
  ])('%j clicks the product button', (task, steps) => {
    expect(stepsOf(task)).toEqual(steps);
  });

  it.each<[string, Bare]>([
    ['press Enter', { action: 'press', key: 'Enter' }],
    ['hit Return', { action: 'press', key: 'Enter' }],
    ['press the Escape key', { action: 'press', key: 'Escape' }],
    ['press Esc', { action: 'press', key: 'Escape' }],
    ['press Tab', { action: 'press', key: 'Tab' }],
    ['press the down arrow', { action: 'press', key: 'ArrowDown' }],
    ['press Page Down', { action: 'press', key: 'PageDown' }],
    ['press F5', { action: 'press', key: 'F5' }],
    ['press ctrl+a', { action: 'press', key: 'Control+A' }],
    ['press Shift+Tab', { action: 'press', key: 'Shift+Tab' }],
    ['press Enter in the Search field', { action: 'press', key: 'Enter', target: field('Search') }],
    ['press Tab in Email', { action: 'press', key: 'Tab', target: field('Email') }],
  ])('%j presses a key', (task, step) => {
    expect(stepsOf(task)).toEqual([step]);
  });

  it.each<[string, string]>([
    ['place the order', 'Place order'],
    ['Place the order.', 'Place order'],
    ['submit it', 'Submit'],
    ['submit the form', 'Submit'],
    ['save the changes', 'Save'],
    ['sign out', 'Sign out'],
    ['log out', 'Log out'],
    ['Buy the cheapest item with the saved card', 'Buy'],
    ['delete the old invoice', 'Delete'],
    ['email the new one to the customer', 'Email'],
    ['Remove the filter', 'Remove filter'],
    ['confirm the booking', 'Confirm booking'],
    ['continue', 'Continue'],
  ])('%j clicks the button the verb names, %j, and says so', (task, name) => {
    const plan = planFor(task);

    expect(plan.steps.map(({ description: _d, ...step }) => step)).toEqual([{ action: 'click', target: button(name) }]);
  });
});

describe('step grammar: forms', () => {
  it.each<[string, Bare]>([
    ['type the coupon code into Coupon', { action: 'fill', target: field('Coupon'), value: testValue('coupon_code') }],
    ['enter demo@example.test in the Email field', { action: 'fill', target: field('Email'), value: literal('demo@example.test') }],
    ['type "hello world" into the Search box', { action: 'fill', target: field('Search'), value: literal('hello world') }],
    ["type 'sign in' in Search", { action: 'fill', target: field('Search'), value: literal('sign in') }],
    ['fill Password with the demo password', { action: 'fill', target: field('Password'), value: testValue('demoPassword') }],
    ['fill in the Email field with the demo email', { action: 'fill', target: field('Email'), value: testValue('demoEmail') }],
    ['fill the "Full name" field with Ada Lovelace', { action: 'fill', target: field('Full name', true), value: literal('Ada Lovelace') }],
    ['enter SAVE10 into the Coupon field', { action: 'fill', target: field('Coupon'), value: literal('SAVE10') }],
    ['put 3 in the Quantity box', { action: 'fill', target: field('Quantity'), value: literal('3') }],
    ['set the Quantity field to 3', { action: 'fill', target: field('Quantity'), value: literal('3') }],
    ['use demo@example.test as the email', { action: 'fill', target: field('email'), value: literal('demo@example.test') }],
    ['fill demoPassword into Password', { action: 'fill', target: field('Password'), value: testValue('demoPassword') }],
    ['clear the Search field', { action: 'fill', target: field('Search'), value: literal('') }],
    ["type Ada into the field with placeholder 'Your name'", { action: 'fill', target: { by: 'placeholder', name: 'Your name', exact: true }, value: literal('Ada') }],
    ['type Ada into the Your name placeholder', { action: 'fill', target: { by: 'placeholder', name: 'Your name', exact: false }, value: literal('Ada') }],
    ['select Blue in Colour', { action: 'select', target: field('Colour'), value: literal('Blue') }],
    ['choose "Express" as the shipping method', { action: 'select', target: field('shipping method'), value: literal('Express') }],
    ['pick Large from the Size dropdown', { action: 'select', target: field('Size'), value: literal('Large') }],
    ['set the Country dropdown to Norway', { action: 'select', target: field('Country'), value: literal('Norway') }],
    ['check Remember me', { action: 'check', target: field('Remember me'), checked: true }],
    ['tick the Remember me box', { action: 'check', target: field('Remember me'), checked: true }],
    ['check the terms checkbox', { action: 'check', target: { by: 'role', role: 'checkbox', name: 'terms', exact: false }, checked: true }],
    ["tick 'I agree'", { action: 'check', target: field('I agree', true), checked: true }],
    ['accept the terms', { action: 'check', target: field('terms'), checked: true }],
    ['uncheck Remember me', { action: 'check', target: field('Remember me'), checked: false }],
    ['untick the Newsletter checkbox', { action: 'check', target: { by: 'role', role: 'checkbox', name: 'Newsletter', exact: false }, checked: false }],
    ['turn off the Dark mode toggle', { action: 'check', target: { by: 'role', role: 'switch', name: 'Dark mode', exact: false }, checked: false }],
    ['select bank transfer', { action: 'check', target: field('bank transfer'), checked: true }],
  ])('%j', (task, step) => {
    expect(stepsOf(task)).toEqual([step]);
  });

  it('searches with the search field and Enter', () => {
    const search = { by: 'placeholder', name: 'Search', exact: false } as const;

    expect(stepsOf('search for order 1234')).toEqual([
      { action: 'fill', target: search, value: literal('order 1234') },
      { action: 'press', key: 'Enter', target: search },
    ]);
    expect(stepsOf('search for "blue mug" in the Products search box')).toEqual([
      { action: 'fill', target: field('Products search'), value: literal('blue mug') },
      { action: 'press', key: 'Enter', target: field('Products search') },
    ]);
  });

  it.each<[string, string]>([
    ['apply the coupon SAVE10', 'SAVE10'],
    ['apply coupon code SAVE10', 'SAVE10'],
    ["use the coupon 'SAVE10'", 'SAVE10'],
    ['enter the coupon code SAVE10', 'SAVE10'],
    ['redeem coupon SAVE10 in the cart', 'SAVE10'],
  ])('%j fills the Coupon field and clicks Apply, in the cart', (task, code) => {
    const plan = planFor(task);

    expect(plan.steps.map(({ description: _d, ...step }) => step)).toEqual([
      navigate('/cart'),
      { action: 'fill', target: field('Coupon'), value: literal(code) },
      { action: 'click', target: button('Apply') },
    ]);
  });

  it('applies a coupon by test value when the task names none, and stays in the cart it is in', () => {
    expect(stepsOf('go to the cart and apply the coupon')).toEqual([
      { ...navigate('/cart'), page: 'cart' },
      { action: 'fill', target: field('Coupon'), value: testValue('coupon_code') },
      { action: 'click', target: button('Apply') },
    ]);
  });

  it('names the field after the word the task used', () => {
    expect(stepsOf('go to /checkout and apply the promo code WELCOME')).toEqual([
      navigate('/checkout'),
      { action: 'fill', target: field('Promo'), value: literal('WELCOME') },
      { action: 'click', target: button('Apply') },
    ]);
  });
});

describe('step grammar: several steps per sentence', () => {
  it('reads commas, "and", "then", semicolons and sentences as separate steps, in order', () => {
    expect(stepsOf('Go to /login; type demo@example.test into Email. Then fill Password with the demo password, and press Enter')).toEqual([
      navigate('/login'),
      { action: 'fill', target: field('Email'), value: literal('demo@example.test') },
      { action: 'fill', target: field('Password'), value: testValue('demoPassword') },
      { action: 'press', key: 'Enter' },
    ]);
  });

  it('never splits inside a quoted label', () => {
    expect(stepsOf('click the "Terms and conditions" link, then check that the page says "Read, then accept."')).toEqual([
      { action: 'click', target: link('Terms and conditions', true) },
      { action: 'expectText', text: 'Read, then accept.', criterion: 'page_says_read_then_accept' },
    ]);
  });

  it('lets a field and its quoted value borrow the verb before it, so a list of fields is filled in full', () => {
    expect(stepsOf('Enter city "Lyon", postal code "69001" and phone number "0102030405", then click Save')).toEqual([
      { action: 'fill', target: field('city'), value: literal('Lyon') },
      { action: 'fill', target: field('postal code'), value: literal('69001') },
      { action: 'fill', target: field('phone number'), value: literal('0102030405') },
      { action: 'click', target: button('Save') },
    ]);
  });

  it('lets a clause without a verb borrow the one before it', () => {
    expect(stepsOf('Add the Desk Lamp and the Blue Mug to the cart')).toEqual([
      { action: 'click', target: addTo('cart', 'Desk Lamp') },
      { action: 'click', target: addTo('cart', 'Blue Mug') },
    ]);
    expect(stepsOf('Fill Email with demo@example.test and Password with the demo password')).toEqual([
      { action: 'fill', target: field('Email'), value: literal('demo@example.test') },
      { action: 'fill', target: field('Password'), value: testValue('demoPassword') },
    ]);
    expect(stepsOf('click Apply, then Checkout')).toEqual([
      { action: 'click', target: button('Apply') },
      { action: 'click', target: button('Checkout') },
    ]);
  });

  it('drops the words people put before a verb', () => {
    expect(stepsOf('First, please go to /pricing. Next, click the Pro link. Finally make sure to press Enter')).toEqual([
      navigate('/pricing'),
      { action: 'click', target: link('Pro') },
      { action: 'press', key: 'Enter' },
    ]);
    expect(stepsOf('1. go to /pricing\n2. click Pro\nstep 3: press Enter')).toEqual([
      navigate('/pricing'),
      { action: 'click', target: button('Pro') },
      { action: 'press', key: 'Enter' },
    ]);
  });

  it.each([
    ['Check that I can sign in as the demo user', ['navigate', 'fill', 'fill', 'click']],
    ['verify that users can add Blue Mug to the cart', ['click']],
    ['make sure we are able to open the pricing page', ['navigate']],
  ])('reads %j as doing it: a step that fails fails the run', (task, actions) => {
    expect(stepsOf(task).map((step) => step.action)).toEqual(actions);
  });

  it('takes limits as no step, and says so', () => {
    const plan = planFor('Go to checkout but do not pay');

    expect(plan.steps.map((step) => step.action)).toEqual(['navigate']);
  });

  it('describes each step the way a person would', () => {
    const plan = planFor('go to /login, fill Password with the demo password, click the "Sign in" button, check Remember me and press Enter');

    expect(plan.steps.map((step) => step.description)).toEqual([
      'Go to /login',
      'Fill the "Password" field with the test value demoPassword',
      'Click the "Sign in" button',
      'Check the "Remember me" field',
      'Press Enter',
    ]);
  });
});
