/**
 * Sauce Labs' own end-to-end suite of Swag Labs (saucedemo.com), written down as people would ask for each test.
 * The app is the local copy in test/fixtures/sauce-demo; each task names the bug that breaks what it checks.
 */
import { BUGS, startSauceDemo } from '../fixtures/sauce-demo/index.js';
import type { CorpusSuite, CorpusTask } from './types.js';

const SPECS = 'test/e2e/test/specs';
const PLACE_ORDER = ['Yes, go ahead and place the order, it is a demo shop'];

const tasks: CorpusTask[] = [
  {
    id: 'login-standard-user',
    source: `${SPECS}/login.spec.ts › LoginPage › should be able to login with a standard user`,
    task: 'Log in as standard_user with the password secret_sauce and check that you end up on the Products page.',
    expect: 'passed',
    bug: 'standard-user-rejected',
  },
  {
    id: 'login-locked-out-user',
    source: `${SPECS}/login.spec.ts › LoginPage › should not be able to login with a locked user`,
    task: 'Try to log in as locked_out_user with password secret_sauce. It should not let you in: check that an error message appears saying "Epic sadface: Sorry, this user has been locked out."',
    expect: 'passed',
    bug: 'locked-out-message-missing',
  },
  {
    id: 'all-products-listed',
    source: `${SPECS}/swag.items.list.spec.ts › Swag items list › should validate that all products are present`,
    task: 'Log in as standard_user with password secret_sauce and check that the Products page lists 6 products.',
    expect: 'passed',
    bug: 'inventory-missing-product',
  },
  {
    id: 'open-product-details',
    source: `${SPECS}/swag.items.list.spec.ts › Swag items list › should validate that the details of a product can be opened`,
    task: 'Log in as standard_user (password secret_sauce), then click on the Sauce Labs Backpack in the product list and make sure its details page opens and shows "Sauce Labs Backpack".',
    expect: 'passed',
    bug: 'details-wrong-product',
  },
  {
    id: 'add-product-from-list',
    source: `${SPECS}/swag.items.list.spec.ts › Swag items list › should validate that a product can be added to the cart`,
    task: 'Log in as standard_user with password secret_sauce. The cart icon should have no number on it yet. Add the first product on the list to the cart and check that the cart badge now shows 1.',
    expect: 'passed',
    bug: 'badge-one-too-many',
  },
  {
    id: 'remove-product-from-list',
    source: `${SPECS}/swag.items.list.spec.ts › Swag items list › should validate that a product can be removed from the cart`,
    task: 'Log in as standard_user / secret_sauce and add the Sauce Labs Backpack to the cart, so that the badge says 1. Then press Remove on it on the Products page and check that the number on the cart icon is gone.',
    expect: 'passed',
    bug: 'inventory-remove-ignored',
  },
  {
    id: 'open-cart',
    source: `${SPECS}/swag.items.list.spec.ts › Swag items list › should be able to open the cart summary page`,
    task: 'Log in as standard_user with password secret_sauce, click the shopping cart icon at the top right and check that the "Your Cart" page opens.',
    expect: 'passed',
    bug: 'cart-link-broken',
  },
  {
    id: 'details-back-to-products',
    source: `${SPECS}/swag.item.details.spec.ts › Swag Item Details › should validate that we can go back from the details to the inventory page`,
    task: 'Log in as standard_user with password secret_sauce and open the details page of the Sauce Labs Backpack. Click "Back to products" there and check that you are back on the product list.',
    expect: 'passed',
    bug: 'back-to-products-ignored',
  },
  {
    id: 'details-add-to-cart',
    source: `${SPECS}/swag.item.details.spec.ts › Swag Item Details › should validate that a product can be added to a cart`,
    task: 'Sign in as standard_user (password secret_sauce) and open the Sauce Labs Backpack. The cart should still be empty, with no badge. Click Add to cart on the details page and check that the cart badge says 1.',
    expect: 'passed',
    bug: 'details-add-ignored',
  },
  {
    id: 'details-remove-from-cart',
    source: `${SPECS}/swag.item.details.spec.ts › Swag Item Details › should validate that a product can be removed from the cart`,
    task: 'Log in as standard_user / secret_sauce, add the Sauce Labs Backpack to the cart and then open its details page; the badge should say 1. Click Remove on the details page and check that the cart badge disappears.',
    expect: 'passed',
    bug: 'details-remove-ignored',
  },
  {
    id: 'cart-continue-shopping',
    source: `${SPECS}/cart.summary.spec.ts › Cart Summary page › should validate that we can continue shopping`,
    task: 'Log in as standard_user with password secret_sauce and open the cart. Click "Continue Shopping" and check that it takes you back to the Products page.',
    expect: 'passed',
    bug: 'continue-shopping-broken',
  },
  {
    id: 'cart-to-checkout',
    source: `${SPECS}/cart.summary.spec.ts › Cart Summary page › should validate that we can go from the cart to the checkout page`,
    task: 'Log in as standard_user with password secret_sauce, go to the cart and click Checkout. The "Checkout: Your Information" page should open.',
    expect: 'passed',
    bug: 'checkout-button-broken',
  },
  {
    id: 'cart-remove-product',
    source: `${SPECS}/cart.summary.spec.ts › Cart Summary page › should validate that a product can be removed from the cart`,
    task: 'Log in as standard_user (password secret_sauce), add the Sauce Labs Backpack to the cart and open the cart; the badge should show 1. Remove the backpack there, then check that the badge is gone and that no items are left in the cart.',
    expect: 'passed',
    bug: 'cart-remove-ignored',
  },
  {
    id: 'checkout-postal-code-required',
    source: `${SPECS}/checkout.personal.info.spec.ts › Checkout - Personal info › should validate we get an error if we don not provide all personal information`,
    task: 'Log in as standard_user with password secret_sauce, open the cart and click Checkout. Fill in "Sauce" as the first name and "Bot" as the last name but leave the Zip/Postal Code empty, then click Continue. You should stay on the form and see the error "Error: Postal Code is required".',
    expect: 'passed',
    bug: 'zip-not-required',
  },
  {
    id: 'checkout-cancel-to-cart',
    source: `${SPECS}/checkout.personal.info.spec.ts › Checkout - Personal info › should validate that we can cancel the first checkout`,
    task: 'Log in as standard_user / secret_sauce, go to the cart and start the checkout. On the "Checkout: Your Information" page click Cancel and check that you are back on Your Cart.',
    expect: 'passed',
    bug: 'step-one-cancel-goes-to-inventory',
  },
  {
    id: 'checkout-continue',
    source: `${SPECS}/checkout.personal.info.spec.ts › Checkout - Personal info › should be able to continue the checkout`,
    task: 'Log in as standard_user with the password secret_sauce, open the cart and click Checkout. Enter first name "Sauce", last name "Bot" and zip code "94105", press Continue, and check that the "Checkout: Overview" page comes up.',
    expect: 'passed',
    bug: 'last-name-not-read',
  },
  {
    id: 'overview-finish',
    source: `${SPECS}/checkout.summary.spec.ts › Checkout - Summary › should validate that we can continue shopping`,
    task: 'Log in as standard_user with password secret_sauce, add the Sauce Labs Backpack to the cart and check out with first name Sauce, last name Bot and zip 94105. On the overview page click Finish and check that the order complete page appears.',
    answers: PLACE_ORDER,
    expect: 'passed',
    bug: 'finish-does-nothing',
  },
  {
    id: 'overview-cancel',
    source: `${SPECS}/checkout.summary.spec.ts › Checkout - Summary › should validate that we can cancel checkout and go to the inventory page`,
    task: 'Log in as standard_user / secret_sauce, put the Sauce Labs Backpack in the cart and go through checkout as Sauce Bot, zip 94105, up to the overview. Don\'t finish the order: click Cancel there and check that you land on the Products page.',
    expect: 'passed',
    bug: 'overview-cancel-goes-to-cart',
  },
  {
    id: 'overview-one-product',
    source: `${SPECS}/checkout.summary.spec.ts › Checkout - Summary › should validate that we have 1 product in our checkout overview`,
    task: 'Log in as standard_user (password secret_sauce), add the Sauce Labs Backpack to the cart and check out with first name "Sauce", last name "Bot" and postal code "94105". Check that the Checkout: Overview page lists exactly one product.',
    expect: 'passed',
    bug: 'overview-duplicates-items',
  },
  {
    id: 'menu-all-items',
    source: `${SPECS}/menu.spec.ts › Menu › should be able to the swag items overview page`,
    task: 'Log in as standard_user with password secret_sauce, add the Sauce Labs Backpack to the cart and go to the cart. Open the menu at the top left, click "All Items" and check that the Products page shows.',
    expect: 'passed',
    bug: 'menu-all-items-broken',
  },
  {
    id: 'menu-logout',
    source: `${SPECS}/menu.spec.ts › Menu › should be able to log out`,
    task: 'Log in as standard_user / secret_sauce, add the Sauce Labs Backpack to the cart and open the cart. Then open the menu, click Logout, and check that you are back on the login page.',
    expect: 'passed',
    bug: 'logout-does-nothing',
  },
  {
    id: 'menu-reset-app-state',
    source: `${SPECS}/menu.spec.ts › Menu › should be able to clear the cart`,
    task: 'Log in as standard_user with password secret_sauce, add the Sauce Labs Backpack to the cart and open the cart; the badge should show 1. Open the menu, click "Reset App State", and check that the cart badge is gone.',
    expect: 'passed',
    bug: 'reset-keeps-cart',
  },
  {
    id: 'full-checkout',
    source: `${SPECS}/demo.spec.ts › Full checkout workflow (demo) › should be able to log in, add a product to the cart, and complete checkout`,
    task: 'Log in as standard_user with password secret_sauce. Check that there are 6 products and that the Sauce Labs Backpack is described with "carry.allTheThings()" and costs $29.99. Add it to the cart and check that the badge goes from nothing to 1. Open the cart and make sure it holds just that one item at $29.99. Check out as Sauce Bot with zip code 94105, check that the overview shows the backpack once, with its description and $29.99, then finish the order and check that the page says "Thank you for your order!" and "Your order has been dispatched".',
    answers: PLACE_ORDER,
    expect: 'passed',
    bug: 'thank-you-missing',
  },
];

export const sauceDemoSuite: CorpusSuite = {
  name: 'sauce-demo',
  app: 'Swag Labs, Sauce Labs\' demo shop: https://www.saucedemo.com (source: https://github.com/saucelabs/sample-app-web)',
  published:
    'saucelabs/sample-app-web test/e2e/test/specs (WebdriverIO, Sauce Labs\' own suite of the app) at b002a60ef533ee9999ec54f1a6e85327a585f645',
  bugs: BUGS,
  tasks,
  start: (options) => startSauceDemo(options),
};
