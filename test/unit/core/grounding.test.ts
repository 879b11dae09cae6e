import { describe, expect, it } from '@jest/globals';
import { flattenSnapshot, groundTarget, type SnapshotNode } from '../../../src/core/grounding.js';
import type { Target } from '../../../src/core/plan.js';

/** A todo list as Playwright's AI-mode `ariaSnapshotJSON` gives it (refs, text runs as strings). */
const TODOS: SnapshotNode[] = [
  {
    role: 'generic',
    ref: 'e1',
    children: [
      { role: 'heading', name: 'todos', level: 1, ref: 'e2' },
      { role: 'textbox', name: 'What needs to be done?', placeholder: 'What needs to be done?', ref: 'e3' },
      { role: 'checkbox', name: 'Mark all as complete', ref: 'e4' },
      {
        role: 'list',
        ref: 'e5',
        children: [
          { role: 'listitem', ref: 'e6', children: [{ role: 'checkbox', ref: 'e7' }, 'Pay rent', { role: 'button', name: 'Delete', ref: 'e8' }] },
          { role: 'listitem', ref: 'e9', children: [{ role: 'checkbox', ref: 'e10' }, 'Buy milk', { role: 'button', name: 'Delete', ref: 'e11' }] },
          { role: 'listitem', ref: 'e12', children: [{ role: 'checkbox', ref: 'e13' }, 'Pay rent twice', { role: 'button', name: 'Delete', ref: 'e14' }] },
        ],
      },
      '3 items left',
      { role: 'link', name: 'All', ref: 'e15' },
      { role: 'link', name: 'Active', ref: 'e16' },
      { role: 'link', name: 'Completed', ref: 'e17' },
    ],
  },
];

const nodes = flattenSnapshot(TODOS);
const target = (fields: Partial<Target>): Target => ({ by: 'description', name: '', exact: false, ...fields }) as Target;

function refOf(result: ReturnType<typeof groundTarget>): string | undefined {
  return result.kind === 'one' ? result.node.ref : undefined;
}

describe('grounding a person\'s words on the page snapshot', () => {
  it('finds the one field of its kind for a description that shares no word with it', () => {
    const result = groundTarget(nodes, 'fill', target({ name: 'field for new items' }));
    expect(refOf(result)).toBe('e3');
  });

  it('finds the checkbox of a row by the row\'s exact text, not a row that only contains it', () => {
    expect(refOf(groundTarget(nodes, 'check', target({ by: 'role', role: 'checkbox', within: { text: 'Pay rent' } })))).toBe('e7');
    expect(refOf(groundTarget(nodes, 'click', target({ by: 'role', role: 'button', name: 'Delete', within: { text: 'Buy milk' } })))).toBe('e11');
  });

  it('counts positions in page order, the last as -1', () => {
    expect(refOf(groundTarget(nodes, 'check', target({ by: 'role', role: 'checkbox', nth: 2, within: undefined, name: '' })))).toBe('e7');
    expect(refOf(groundTarget(nodes, 'click', target({ by: 'role', role: 'button', name: 'Delete', nth: -1 })))).toBe('e14');
  });

  it('refuses several alike with the candidates instead of picking one', () => {
    const result = groundTarget(nodes, 'click', target({ by: 'role', role: 'button', name: 'Delete' }));
    expect(result.kind).toBe('several');
    if (result.kind !== 'one') expect(result.message).toContain('3 elements match');
  });

  it('refuses a name nothing shows, listing what the page offers of that kind (a "link" may be a button)', () => {
    const result = groundTarget(nodes, 'click', target({ by: 'role', role: 'link', name: 'Archived' }));
    expect(result.kind).toBe('none');
    if (result.kind !== 'one') expect(result.candidates).toEqual(['button "Delete"', 'link "All"', 'link "Active"', 'link "Completed"']);
  });

  it('prefers the element named exactly over one whose name only contains the words', () => {
    expect(refOf(groundTarget(nodes, 'click', target({ by: 'role', role: 'link', name: 'Active' })))).toBe('e16');
    expect(refOf(groundTarget(nodes, 'dblclick', target({ by: 'text', name: 'Buy milk' })))).toBeUndefined();
    const text = groundTarget(nodes, 'dblclick', target({ by: 'text', role: 'text', name: 'Buy milk' }));
    expect(text.kind === 'one' ? text.node.name : text.message).toBe('Buy milk');
  });
});

describe('grounding where the page says less than the task', () => {
  const form: SnapshotNode[] = [
    { role: 'generic', ref: 'e1', children: [{ role: 'checkbox', ref: 'e2' }, 'checkbox 1', { role: 'checkbox', ref: 'e3' }, 'checkbox 2'] },
    { role: 'generic', ref: 'e4', children: [{ role: 'paragraph', ref: 'e5', text: 'Number' }, { role: 'spinbutton', ref: 'e6' }] },
  ];
  const shop: SnapshotNode[] = [
    {
      role: 'generic',
      ref: 'e1',
      children: [
        { role: 'generic', ref: 'e2', children: [{ role: 'link', name: 'Sauce Labs Backpack', ref: 'e3', url: '/item?id=4' }, { role: 'link', name: 'Sauce Labs Backpack', ref: 'e4', url: '/item?id=4' }, { role: 'button', name: 'Add to cart', ref: 'e5' }] },
        { role: 'generic', ref: 'e6', children: [{ role: 'link', name: 'Sauce Labs Bike Light', ref: 'e7', url: '/item?id=0' }, { role: 'button', name: 'Add to cart', ref: 'e8' }] },
      ],
    },
  ];

  it('takes the box a text follows and the field a caption precedes', () => {
    const flat = flattenSnapshot(form);
    expect(refOf(groundTarget(flat, 'check', target({ by: 'role', role: 'checkbox', within: { text: 'checkbox 2' } }), { strict: true }))).toBe('e3');
    expect(refOf(groundTarget(flat, 'fill', target({ by: 'role', role: 'textbox', within: { text: 'Number' } }), { strict: true }))).toBe('e6');
  });

  it('takes the "Add to cart" of the card that shows the rest of the words', () => {
    const flat = flattenSnapshot(shop);
    expect(refOf(groundTarget(flat, 'click', target({ by: 'description', role: 'button', name: 'Add Sauce Labs Bike Light to cart' }), { strict: true }))).toBe('e8');
    expect(groundTarget(flat, 'click', target({ by: 'description', role: 'button', name: 'Add the Onesie to cart' }), { strict: true }).kind).toBe('none');
  });

  /** A bookshop: each card's title link sits in a box of its own, and a card offers two actions. */
  const books: SnapshotNode[] = [
    {
      role: 'main',
      ref: 'b1',
      children: [
        {
          role: 'generic',
          ref: 'b2',
          children: [
            { role: 'generic', ref: 'b3', children: [{ role: 'link', name: 'Dune', ref: 'b4', url: '/books/1' }, 'Frank Herbert'] },
            { role: 'button', name: 'Add to wishlist', ref: 'b5' },
            { role: 'button', name: 'Add to basket', ref: 'b6' },
          ],
        },
        {
          role: 'generic',
          ref: 'b7',
          children: [
            { role: 'generic', ref: 'b8', children: [{ role: 'link', name: 'Emma', ref: 'b9', url: '/books/2' }, 'Jane Austen'] },
            { role: 'button', name: 'Add to wishlist', ref: 'b10' },
            { role: 'button', name: 'Notify me', ref: 'b11' },
          ],
        },
      ],
    },
  ];
  const basket = (place: string, fields: Partial<Target>) => target({ role: 'button', name: `Add to ${place}`, ...fields });

  it('takes the control named like the action in the card that shows the product, never the product\'s own link', () => {
    const flat = flattenSnapshot(books);
    expect(refOf(groundTarget(flat, 'click', basket('basket', { within: { text: 'Dune' } })))).toBe('b6');
    expect(refOf(groundTarget(flat, 'click', basket('Wish List', { within: { text: 'Emma' } })))).toBe('b10');
    expect(refOf(groundTarget(flattenSnapshot(shop), 'click', basket('cart', { within: { text: 'Sauce Labs Bike Light' } })))).toBe('e8');
  });

  it('refuses a product whose card has no control that adds it, rather than clicking its link', () => {
    const result = groundTarget(flattenSnapshot(books), 'click', basket('basket', { within: { text: 'Emma' } }));
    expect(result.kind).toBe('none');
  });

  it('takes a control that names the product itself, and counts the action\'s controls for a position', () => {
    const mugs: SnapshotNode[] = [
      {
        role: 'list',
        ref: 'm1',
        children: [
          { role: 'listitem', ref: 'm2', children: [{ role: 'heading', name: 'Blue Mug', ref: 'm3' }, { role: 'button', name: 'Add Blue Mug to cart', ref: 'm4' }] },
          { role: 'listitem', ref: 'm5', children: [{ role: 'heading', name: 'Desk Lamp', ref: 'm6' }, { role: 'button', name: 'Add Desk Lamp to cart', ref: 'm7' }] },
        ],
      },
    ];
    expect(refOf(groundTarget(flattenSnapshot(mugs), 'click', basket('cart', { within: { text: 'Desk Lamp' } })))).toBe('m7');
    expect(refOf(groundTarget(flattenSnapshot(books), 'click', basket('wishlist', { nth: 2 })))).toBe('b10');
    expect(refOf(groundTarget(flattenSnapshot(shop), 'click', basket('cart', { nth: 1 })))).toBe('e5');
  });

  it('finds the button that opens a menu and the one that starts a checkout by the words they share', () => {
    const header = flattenSnapshot([
      { role: 'banner', ref: 'h1', children: [{ role: 'button', name: 'Toggle navigation menu', ref: 'h2' }, { role: 'link', name: 'Home', ref: 'h3' }] },
      { role: 'main', ref: 'h4', children: [{ role: 'button', name: 'Continue shopping', ref: 'h5' }, { role: 'button', name: 'Checkout', ref: 'h6' }] },
    ]);
    expect(refOf(groundTarget(header, 'click', target({ role: 'button', name: 'menu' })))).toBe('h2');
    expect(refOf(groundTarget(header, 'click', target({ role: 'button', name: 'Start checkout' })))).toBe('h6');
  });

  it('reads a slash in a field\'s name as alternatives: "Zip/Postal Code" is the zip code and the postal code', () => {
    const address = flattenSnapshot([
      { role: 'form', ref: 'a1', children: [{ role: 'textbox', placeholder: 'City', ref: 'a2' }, { role: 'textbox', placeholder: 'Zip/Postal Code', ref: 'a3' }, { role: 'textbox', name: 'E-mail / Username', ref: 'a4' }] },
    ]);
    expect(refOf(groundTarget(address, 'fill', target({ by: 'text', name: 'zip code' }), { strict: true }))).toBe('a3');
    expect(refOf(groundTarget(address, 'fill', target({ by: 'text', name: 'postal code' }), { strict: true }))).toBe('a3');
    expect(refOf(groundTarget(address, 'fill', target({ by: 'text', name: 'username' }), { strict: true }))).toBe('a4');
    expect(groundTarget(address, 'fill', target({ by: 'text', name: 'zip postal' }), { strict: true }).kind).toBe('none');
  });

  it('takes the first of links that go to one address, and still refuses links that go to two', () => {
    const flat = flattenSnapshot(shop);
    expect(refOf(groundTarget(flat, 'click', target({ by: 'text', name: 'Sauce Labs Backpack', exact: true })))).toBe('e3');
    expect(groundTarget(flat, 'click', target({ by: 'role', role: 'link', name: 'Sauce Labs' })).kind).toBe('several');
  });

  it('never takes the only control of its kind for a fallback\'s words that do not match', () => {
    expect(groundTarget(flattenSnapshot(form), 'fill', target({ name: 'Email address' }), { strict: true }).kind).toBe('none');
    expect(refOf(groundTarget(flattenSnapshot(form), 'fill', target({ name: 'Email address' })))).toBe('e6');
  });
});

describe('grounding the field an expected value is read from', () => {
  // A quantity box captioned by a text beside it, not labelled: the text and the field both say "Quantity".
  const form = flattenSnapshot([{ role: 'generic', ref: 'e1', children: [{ role: 'paragraph', ref: 'e2', children: ['Quantity'] }, { role: 'spinbutton', ref: 'e3' }] }]);

  it('reads a value from a field, never from the text that captions it', () => {
    expect(refOf(groundTarget(form, 'expectValue', target({ by: 'text', name: 'Quantity' })))).toBeUndefined();
    expect(refOf(groundTarget(form, 'expectValue', target({ by: 'description', name: 'Quantity' })))).toBe('e3');
    expect(refOf(groundTarget(form, 'expectText', target({ by: 'text', name: 'Quantity' })))).not.toBe('e3');
  });
});

describe('"the list" with no name among several', () => {
  /** A site menu (a list of links) above a list of search results, and a second menu of page links below. */
  const page = (results: SnapshotNode[]): SnapshotNode[] => [
    {
      role: 'generic',
      children: [
        { role: 'list', ref: 'm1', children: [{ role: 'listitem', children: [{ role: 'link', name: 'Home', ref: 'm2' }] }, { role: 'listitem', children: [{ role: 'link', name: 'Help', ref: 'm3' }] }] },
        { role: 'list', ref: 'r1', children: results },
        { role: 'list', ref: 'p1', children: [{ role: 'listitem', children: [{ role: 'link', name: '1', ref: 'p2' }] }, { role: 'listitem', children: [{ role: 'link', name: '2', ref: 'p3' }] }] },
      ],
    },
  ];
  const list = target({ by: 'role', role: 'list' });

  it('is the list of the page\'s content, not a menu whose every item is only a link', () => {
    const results = [
      { role: 'listitem', children: ['Blue mug', { role: 'button', name: 'Add to cart', ref: 'r2' }] },
      { role: 'listitem', children: [{ role: 'checkbox', ref: 'r3' }, 'Red mug'] },
    ];
    const result = groundTarget(flattenSnapshot(page(results)), 'expectCount', list);
    expect(refOf(result)).toBe('r1');
    if (result.kind === 'one') expect(result.how).toContain('the list that is not a menu of links');
  });

  it('still refuses when every list is a menu of links, or more than one is not', () => {
    const links = [{ role: 'listitem', children: [{ role: 'link', name: 'Blue mug', ref: 'r2' }] }];
    expect(groundTarget(flattenSnapshot(page(links)), 'expectCount', list).kind).toBe('several');
    const two: SnapshotNode[] = [...page([{ role: 'listitem', children: ['Blue mug'] }]), { role: 'list', ref: 'x1', children: [{ role: 'listitem', children: ['Red mug'] }] }];
    expect(groundTarget(flattenSnapshot(two), 'expectCount', list).kind).toBe('several');
  });
});
