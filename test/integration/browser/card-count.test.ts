/**
 * "The catalogue shows 3 products" on a shop whose products are cards, not list items, in real Chromium: the run
 * counts the repeated siblings that each hold a text and a control, stores them as one CSS locator, and says it ran a
 * count of those (so a replay and the generated source count the same cards), and a wrong number fails.
 */
import { describe, expect, it } from '@jest/globals';
import { runStep } from '../../../src/browser/step-runner.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { useBrowserSession } from '../../support/browser-session.js';

const tile = (name: string) => `<section class="tile tile--shop"><h3>${name}</h3><span>$5</span><button>Buy</button></section>`;
const SHOP = `<nav><a class="nav-link" href="/a">Home</a><a class="nav-link" href="/b">Sale</a></nav>
<div class="grid">${tile('Mug')}${tile('Lamp')}${tile('Chair')}</div>
<aside><div class="promo">Free shipping</div></aside>`;

describe('counting product cards in Chromium', () => {
  const planner = createRulePlanner();
  const current = useBrowserSession(() => 'http://127.0.0.1:9');

  async function countStep(sentence: string): Promise<PlanStep> {
    const result = await planner.interpret(sentence, { testValueNames: [], evidenceCriteria: [] });
    if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);
    return result.plan.steps.find((step) => step.action === 'expectCount')!;
  }

  const options = () => ({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_500, testValue: () => undefined, allowlist: current().allowlist });

  it('counts the cards that are not list items, and replays the count by the stored locator', async () => {
    await current().page.setContent(SHOP);
    const step = await countStep('check that the page lists 3 products');
    const result = await runStep(current().page, step, options());
    const cards = { strategy: 'css', name: '.tile', exact: false };
    expect(result).toMatchObject({ status: 'passed', locator: cards, ran: { action: 'expectCount', count: 3 } });
    expect(result.status === 'passed' && result.ran).not.toHaveProperty('itemRole');
    const ran = (result as { ran: PlanStep }).ran;
    expect(await runStep(current().page, ran, { ...options(), locator: cards as never })).toMatchObject({ status: 'passed' });
    await current().page.locator('section.tile').last().evaluate((node) => node.remove());
    expect(await runStep(current().page, ran, { ...options(), locator: cards as never })).toMatchObject({ status: 'failed', kind: 'assertion_failed' });
  });

  it('fails a count the cards do not have', async () => {
    await current().page.setContent(SHOP);
    expect(await runStep(current().page, await countStep('check that the page lists 4 products'), options())).toMatchObject({ status: 'failed', kind: 'assertion_failed' });
  });
});
