/**
 * Issue 25: "X is gone" holds only for an X the run saw. A library's loans page in real Chromium, planned by the rule
 * planner and run step by step as a run does (watch the plan's "hidden" targets, observe after each passed step): a
 * notice that was shown and then removed is gone; a name the page never showed, or an element named by what it is
 * that the run never found, fails as `step_unresolvable` instead of passing on any page.
 */
import { describe, expect, it } from '@jest/globals';
import { observeGoneTargets, watchGoneTargets } from '../../../src/browser/gone-anchors.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { useBrowserSession } from '../../support/browser-session.js';

const LOANS = `<main>
  <h1>My loans</h1>
  <p id="overdue">Overdue: The Hobbit</p>
  <p id="status"></p>
  <button id="return">Return The Hobbit</button>
  <button id="renew">Renew all</button>
</main>
<script>
  document.querySelector('#return').addEventListener('click', () => { document.querySelector('#overdue').remove(); });
  document.querySelector('#renew').addEventListener('click', () => {
    document.querySelector('#status').textContent = 'Renewing loans';
    setTimeout(() => { document.querySelector('#status').textContent = ''; }, 300);
  });
</script>`;

describe('"X is gone" anchored to what the run saw, in Chromium', () => {
  const planner = createRulePlanner();
  const current = useBrowserSession(() => 'http://127.0.0.1:9');

  async function run(sentence: string): Promise<StepResult[]> {
    const result = await planner.interpret(sentence, { testValueNames: [], evidenceCriteria: [] });
    if (result.kind !== 'runnable') throw new Error(`not runnable: ${JSON.stringify(result)}`);
    const steps: PlanStep[] = result.plan.steps.filter((step) => step.action !== 'navigate');
    const page = current().page;
    await page.setContent(LOANS);
    watchGoneTargets(page, steps);
    // The page as the run starts on it (a run's first step opens it, and is observed after).
    await observeGoneTargets(page, -1);
    const results: StepResult[] = [];
    for (const [index, step] of steps.entries()) {
      const outcome = await runStep(page, step, { baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_500, testValue: () => undefined, allowlist: current().allowlist });
      results.push(outcome);
      if (outcome.status === 'failed') break;
      await observeGoneTargets(page, index, step);
    }
    return results;
  }

  it('passes for a text the page showed and then removed, and fails while it is still there', async () => {
    expect(await run('click "Return The Hobbit" and check that "Overdue: The Hobbit" is gone')).toEqual([
      expect.objectContaining({ status: 'passed' }),
      expect.objectContaining({ status: 'passed' }),
    ]);
    expect(await run('click "Renew all" and check that "Overdue: The Hobbit" is gone')).toEqual([
      expect.objectContaining({ status: 'passed' }),
      expect.objectContaining({ status: 'failed', kind: 'assertion_failed' }),
    ]);
  });

  it('refuses a target the page never showed rather than passing on any page', async () => {
    const results = await run('click "Return The Hobbit" and check that "Late fee" is gone');
    expect(results).toEqual([expect.objectContaining({ status: 'passed' }), expect.objectContaining({ status: 'failed', kind: 'step_unresolvable' })]);
    expect((results[1] as { message: string }).message).toMatch(/never on the page/);
  });

  it('refuses an element named by what it is that the run never found', async () => {
    expect(await run('click "Return The Hobbit" and check that the fines badge is gone')).toEqual([
      expect.objectContaining({ status: 'passed' }),
      expect.objectContaining({ status: 'failed', kind: 'step_unresolvable' }),
    ]);
  });
});
