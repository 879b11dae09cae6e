/**
 * "Add X to the cart" as shops lay it out, in real Chromium: the rule planner reads the sentence, and the run clicks the
 * control named like the action in the card that shows the product, never the product's own title link. Two shops
 * other than the corpus's: a bookshop whose cards are plain boxes with a title link in a box of its own and two
 * actions each, and a list shop whose buttons say the product themselves; and a product opened by its name.
 */
import { describe, expect, it } from '@jest/globals';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { useBrowserSession } from '../../support/browser-session.js';

const SCRIPT = `<script>
  document.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (button) document.querySelector('#done').textContent += button.dataset.did + ';';
    if (event.target.closest('a')) { event.preventDefault(); document.querySelector('#done').textContent += 'opened;'; }
  });
</script>`;

const card = (title: string, author: string, actions: string) =>
  `<div class="book"><div class="title"><a href="/books/${encodeURIComponent(title)}">${title}</a><span>${author}</span></div>${actions}</div>`;
const BOOKSHOP = `<main>
  ${card('Dune', 'Frank Herbert', '<button data-did="wish Dune">Add to wishlist</button><button data-did="basket Dune">Add to basket</button>')}
  ${card('Emma', 'Jane Austen', '<button data-did="wish Emma">Add to wishlist</button><button data-did="notify Emma">Notify me</button>')}
  ${card('Ulysses', 'James Joyce', '<button data-did="wish Ulysses">Add to wishlist</button><button data-did="basket Ulysses">Add to basket</button>')}
</main><p id="done"></p>${SCRIPT}`;

const LIST_SHOP = `<ul>
  <li><h2>Blue Mug</h2><p>$12</p><button data-did="cart Blue Mug">Add Blue Mug to cart</button></li>
  <li><h2>Desk Lamp</h2><p>$100</p><button data-did="cart Desk Lamp">Add Desk Lamp to cart</button></li>
</ul><p id="done"></p>${SCRIPT}`;

describe('adding a product to the cart, basket or wish list in Chromium', () => {
  const planner = createRulePlanner();

  const current = useBrowserSession(() => 'http://127.0.0.1:9');

  /** The steps the rule planner makes of `sentence`, without the sign-in or navigation it may add. */
  async function stepsOf(sentence: string): Promise<PlanStep[]> {
    const result = await planner.interpret(sentence, { testValueNames: [], evidenceCriteria: [] });
    if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);
    return result.plan.steps.filter((step) => step.action === 'click');
  }

  async function runOn(html: string, sentence: string): Promise<{ results: StepResult[]; done: string }> {
    await current().page.setContent(html);
    const results: StepResult[] = [];
    for (const step of await stepsOf(sentence)) results.push(await runStep(current().page, step, { baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000, testValue: () => undefined, allowlist: current().allowlist }));
    return { results, done: (await current().page.locator('#done').textContent()) ?? '' };
  }

  it('puts a book in the basket from its own card, not its title link nor its wish-list button', async () => {
    const { results, done } = await runOn(BOOKSHOP, 'put Ulysses in the basket');
    expect(results).toEqual([expect.objectContaining({ status: 'passed' })]);
    expect(done).toBe('basket Ulysses;');
  });

  it('adds to the wish list when that is the place named, and counts a position among the action\'s controls', async () => {
    expect((await runOn(BOOKSHOP, 'add Emma to my wish list')).done).toBe('wish Emma;');
    expect((await runOn(BOOKSHOP, 'add the third book to the wishlist')).done).toBe('wish Ulysses;');
    expect((await runOn(BOOKSHOP, 'add the first book on the list to the basket')).done).toBe('basket Dune;');
  });

  it('refuses a book whose card offers no way to add it, saying so, rather than opening its page', async () => {
    const { results, done } = await runOn(BOOKSHOP, 'add Emma to the basket');
    expect(results).toEqual([expect.objectContaining({ status: 'failed', kind: 'step_unresolvable' })]);
    expect(done).toBe('');
  });

  it('opens a product by its name when its picture link is named the same by its image, and still refuses two alike that go to two places', async () => {
    const gallery = `<div><a href="#"><img alt="Dune" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></a><a href="#">Dune</a></div>
<div><a href="#"><img alt="Emma" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></a><a href="#">Emma</a></div><p id="done"></p>${SCRIPT}`;
    const opened = await runOn(gallery, 'click on Dune');
    expect(opened.done).toBe('opened;');
    expect(opened.results[0]).toMatchObject({ status: 'passed', locator: { strategy: 'role', role: 'link', name: 'Dune', exact: true, nth: 1 } });
    const twice = await runOn(`<a href="/books/1">Dune</a><a href="/films/1">Dune</a><p id="done"></p>${SCRIPT}`, 'click on Dune');
    expect(twice.results[0]).toMatchObject({ status: 'failed', kind: 'step_unresolvable' });
  });

  it('keeps the plain locator of a button that names its product itself', async () => {
    const { results, done } = await runOn(LIST_SHOP, 'add the Desk Lamp to the cart');
    expect(done).toBe('cart Desk Lamp;');
    expect(results[0]).toMatchObject({ status: 'passed', locator: { strategy: 'role', role: 'button', name: 'Add Desk Lamp to cart', exact: true } });
  });
});
