/**
 * Page elements named by what they are ("the basket counter", "the bag icon") when the page gives them no accessible
 * name, in real Chromium: the rule planner reads the sentence, and the run finds the element by its class, id or
 * data-testid, keeps the plainest CSS locator that finds it alone, and checks "is gone" on the element it saw before
 * rather than passing because nothing is found. A shop other than the corpus's: a header with a bag link drawn as a
 * background image and a counter span, and a wish-list counter beside it.
 */
import { describe, expect, it } from '@jest/globals';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { useBrowserSession } from '../../support/browser-session.js';

const SHOP = `<style>
  .HeaderBag__link { display: inline-block; width: 24px; height: 24px; cursor: pointer; background: #333; }
  .wish-count, .HeaderBag__count { display: inline-block; min-width: 12px; padding: 2px; }
</style>
<header>
  <span class="wish-count" data-testid="wishlist-counter">4</span>
  <div id="bag"><span class="HeaderBag__link" data-testid="header-bag-link"></span><span class="HeaderBag__count" data-testid="bag-counter">2</span></div>
</header>
<main><p>Ulysses</p><button id="fewer">Fewer</button><button id="hide">Hide bag</button></main>
<p id="done"></p>
<script>
  document.querySelector('.HeaderBag__link').addEventListener('click', () => { document.querySelector('#done').textContent = 'bag opened'; });
  document.querySelector('#fewer').addEventListener('click', () => { document.querySelector('.HeaderBag__count').textContent = '1'; });
  document.querySelector('#hide').addEventListener('click', () => { document.querySelector('.HeaderBag__count').remove(); });
</script>`;

describe('elements named by what they are, found by their hints in Chromium', () => {
  const planner = createRulePlanner();
  const current = useBrowserSession(() => 'http://127.0.0.1:9');

  async function stepsOf(sentence: string): Promise<PlanStep[]> {
    const result = await planner.interpret(sentence, { testValueNames: [], evidenceCriteria: [] });
    if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);
    return result.plan.steps.filter((step) => step.action !== 'navigate');
  }

  async function run(sentence: string, html?: string): Promise<StepResult[]> {
    if (html !== undefined) await current().page.setContent(html);
    const results: StepResult[] = [];
    for (const step of await stepsOf(sentence)) {
      const result = await runStep(current().page, step, { baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_500, testValue: () => undefined, allowlist: current().allowlist });
      results.push(result);
      if (result.status === 'failed') break;
    }
    return results;
  }

  it('reads "the bag counter shows 2" off that element, not any "2" on the page, and fails when it shows another number', async () => {
    const shown = await run('check that the bag counter shows 2', SHOP);
    expect(shown).toEqual([expect.objectContaining({ status: 'passed', locator: { strategy: 'css', name: '[data-testid="bag-counter"]', exact: false } })]);
    // The wish list's counter shows 4: the page shows "4", the bag counter does not.
    expect(await run('check that the bag counter shows 4')).toEqual([expect.objectContaining({ status: 'failed', kind: 'assertion_failed' })]);
  });

  it('clicks the bag icon that has no name by its hints, among its siblings the one a person can click', async () => {
    const results = await run('click the bag icon', SHOP);
    expect(results).toEqual([expect.objectContaining({ status: 'passed', locator: { strategy: 'css', name: '[data-testid="header-bag-link"]', exact: false } })]);
    expect(await current().page.locator('#done').textContent()).toBe('bag opened');
  });

  it('checks that the counter it saw is gone, and fails while it is still there', async () => {
    await current().page.setContent(SHOP);
    expect(await run('check that the bag counter shows 2')).toEqual([expect.objectContaining({ status: 'passed' })]);
    // Still there (now 1): "gone" fails on that very element.
    expect(await run('click Fewer, then check that the bag counter is gone')).toEqual([
      expect.objectContaining({ status: 'passed' }),
      expect.objectContaining({ status: 'failed', kind: 'assertion_failed' }),
    ]);
    const gone = await run('click "Hide bag" and check that the counter is gone');
    expect(gone).toEqual([expect.objectContaining({ status: 'passed' }), expect.objectContaining({ status: 'passed', locator: { strategy: 'css', name: '[data-testid="bag-counter"]', exact: false } })]);
  });

  it('replays a hidden element by the locator the run stored', async () => {
    await current().page.setContent(SHOP);
    const [hidden] = await stepsOf('check that the bag counter is gone');
    const stored = { strategy: 'css' as const, name: '[data-testid="bag-counter"]', exact: false };
    const options = { baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_000, testValue: () => undefined, allowlist: current().allowlist, locator: stored };
    expect(await runStep(current().page, hidden!, options)).toMatchObject({ status: 'failed', kind: 'assertion_failed' });
    await current().page.locator('#hide').click();
    expect(await runStep(current().page, hidden!, options)).toMatchObject({ status: 'passed' });
  });
});
