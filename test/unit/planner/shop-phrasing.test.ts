/**
 * Issue 25: how shoppers and app users say things the rule planner read wrongly or not at all. Each family with
 * wording of its own (a bookshop, a tea shop, a notes app, a bank's payee list), never a corpus task's:
 * - a checkout said with its details ("check out with first name Ada, last name Lovelace and postcode 'N1 9GU'",
 *   "go through checkout as Ada Lovelace, zip 10001, up to the review"): the cart first, Checkout, each detail into
 *   its field, Continue;
 * - "leave the Postcode empty": the field is filled with nothing (found on the page, so a missing field fails);
 * - "remove the atlas there": the Remove control in the row of the item the task named ("World Atlas");
 * - "no books are left in the basket", "the basket is empty": each item the task named is gone;
 * - "the number on the basket icon is gone": the basket's badge, found by its hints;
 * - "… opens and shows 'Moby Dick'": the second predicate's subject is the page, and what it shows is the quoted text;
 * - "you are back on the shelf list", "its details page opens": pages said by how they were reached (`reached`).
 */
import { describe, expect, it } from '@jest/globals';
import { addTo, button, field, literal, navigate, questionsOf, stepsOf } from './plan-support.js';

const CONTINUE = button('Continue');
const CHECKOUT = button('Checkout');
const CART = { ...navigate('/cart'), page: 'cart' } as const;
const fill = (name: string, value: string) => ({ action: 'fill', target: field(name), value: literal(value) }) as const;
const click = (target: object) => ({ action: 'click', target }) as const;

describe('a checkout said with its details', () => {
  it('opens the cart, starts the checkout, types each detail and sends them, with unquoted values', () => {
    expect(stepsOf('add the World Atlas to the basket and check out with first name Ada, last name Lovelace and zip 10001')).toEqual([
      click(addTo('basket', 'World Atlas')),
      CART,
      click(CHECKOUT),
      fill('first name', 'Ada'),
      fill('last name', 'Lovelace'),
      fill('zip', '10001'),
      click(CONTINUE),
    ]);
  });

  it('keeps quoted values whole and reads a person\'s name said whole as first and last name', () => {
    expect(stepsOf('check out as Grace Hopper with postal code "N1 9GU"')).toEqual([
      CART,
      click(CHECKOUT),
      fill('first name', 'Grace'),
      fill('last name', 'Hopper'),
      fill('postal code', 'N1 9GU'),
      click(CONTINUE),
    ]);
  });

  it('reads "go through checkout as …, zip …, up to the review" as one checkout, where it stops being no step', () => {
    expect(stepsOf('Go through checkout as Ada Lovelace, zip 10001, up to the review. Then click Cancel')).toEqual([
      CART,
      click(CHECKOUT),
      fill('first name', 'Ada'),
      fill('last name', 'Lovelace'),
      fill('zip', '10001'),
      click(CONTINUE),
      click(button('Cancel')),
    ]);
  });

  it('does not open the cart again when the plan is on it already', () => {
    expect(stepsOf('open the cart, then check out with email ada@example.test')).toEqual([
      CART,
      click(CHECKOUT),
      fill('email', 'ada@example.test'),
      click(CONTINUE),
    ]);
  });

  it('leaves "check out with care" and other words that are no details to the readers before', () => {
    expect(stepsOf('check out with express shipping')).toEqual([click(CHECKOUT)]);
    expect(stepsOf('check out')).toEqual([click(CHECKOUT)]);
  });
});

describe('a field left empty', () => {
  it('fills the named field with nothing, so the run still finds it', () => {
    expect(stepsOf('type "Ada" into First name but leave the Postcode empty, then click Send')).toEqual([
      fill('First name', 'Ada'),
      fill('Postcode', ''),
      click(button('Send')),
    ]);
    expect(stepsOf('keep the Reference field blank')).toEqual([fill('Reference', '')]);
  });
});

describe('a verb said of an item the task named by a shorter name', () => {
  it('is the control named like the verb in that item\'s row', () => {
    expect(stepsOf('add the World Atlas to the basket, open the basket and remove the atlas there')).toEqual([
      click(addTo('basket', 'World Atlas')),
      { ...CART, page: 'basket' },
      click({ by: 'role', role: 'button', name: 'Remove', exact: false, within: { text: 'World Atlas' } }),
    ]);
  });

  it('stays a button of that name when no item the task named has those words', () => {
    expect(stepsOf('delete the payee')).toEqual([click(button('Delete payee'))]);
  });
});

describe('nothing left in the cart or list', () => {
  it('checks that each item the task named is gone', () => {
    const steps = stepsOf('add the Green Tea to the basket, open the basket, remove the tea there and check that no items are left in the basket');
    expect(steps.at(-1)).toEqual({ action: 'expectState', target: { by: 'text', name: 'Green Tea', exact: true }, state: 'hidden', criterion: 'no_items_left_in_basket' });
    expect(stepsOf('add the Green Tea to the basket and then verify the basket is empty').at(-1)).toMatchObject({ action: 'expectState', target: { by: 'text', name: 'Green Tea', exact: true }, state: 'hidden' });
  });

  it('is no such check when the task named no item', () => {
    expect(stepsOf('open the basket and check that no items are left in the basket')).not.toContainEqual(expect.objectContaining({ action: 'expectState' }));
  });
});

describe('the number on an icon', () => {
  it('is the badge of what the icon stands for, found by its hints', () => {
    expect(stepsOf('check that the number on the basket icon is gone')).toEqual([
      { action: 'expectState', target: { by: 'description', name: 'basket badge', exact: false }, state: 'hidden', criterion: 'number_on_basket_icon_gone' },
    ]);
    expect(stepsOf('check that the count next to the Inbox link shows 3')).toEqual([
      { action: 'expectText', text: '3', target: { by: 'description', name: 'inbox badge', exact: false }, criterion: 'count_next_to_inbox_link_shows_3' },
    ]);
  });

  it('asks nothing new of a task that says none of these', () => {
    expect(questionsOf('check that the order number is shown')).toEqual([]);
  });
});

describe('a predicate whose subject is the clause before', () => {
  it('checks the quoted texts on the page, not the words "shows …"', () => {
    expect(stepsOf('click Moby Dick and make sure its page opens and shows "Moby Dick" and "Herman Melville"').slice(-2)).toEqual([
      { action: 'expectText', text: 'Moby Dick', criterion: 'shows_moby_dick_and_herman_melville' },
      { action: 'expectText', text: 'Herman Melville', criterion: 'shows_moby_dick_and_herman_melville' },
    ]);
  });
});

describe('pages said by how they were reached', () => {
  it('marks "back on" as the page before the one just left, and a thing\'s own page after a click as a new page', () => {
    expect(stepsOf('click "Back to shelves" and check that you are back on the shelf list').at(-1)).toMatchObject({ action: 'expectUrl', page: 'shelf list', reached: 'back' });
    expect(stepsOf('click Moby Dick and make sure its details page opens').at(-1)).toMatchObject({ action: 'expectUrl', page: 'details', reached: 'new' });
  });

  it('leaves a page said by its name alone', () => {
    expect(stepsOf('click Shelves and check that you are on the Shelves page').at(-1)).not.toHaveProperty('reached');
    expect(stepsOf('click Shelves and check that the Shelves page opens').at(-1)).not.toHaveProperty('reached');
  });
});
