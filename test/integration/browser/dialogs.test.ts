/**
 * The browser's own dialogs in real Chromium (test/support/dialog-site.ts): the step that opens one is told first how
 * to answer it (the `dialog` steps after it), so it never stalls; the dialog step then checks what it said. An alert,
 * a confirm accepted and cancelled, a prompt answered and cancelled, one that opens late, two from one click, one
 * from a right click; and the failures a bug in the app makes: another message, no dialog, a dialog nobody expected.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { dialogStepsAfter, watchDialogs, type DialogWatch } from '../../../src/browser/dialogs.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { stepSchema, type PlanStep } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startDialogSite, type DialogSite } from '../../support/dialog-site.js';

const step = (raw: Record<string, unknown>): PlanStep => stepSchema.parse({ description: String(raw.action), ...raw });
const click = (name: string) => ({ action: 'click', target: { by: 'role', role: 'button', name, exact: true } });
const result = (text: string) => ({ action: 'expectText', text });

describe('the browser\'s dialogs in Chromium', () => {
  let site: DialogSite;
  let browsers: BrowserPool;
  let session: BrowserSession;
  let dialogs: DialogWatch;

  beforeAll(async () => {
    site = await startDialogSite();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
    await site.close();
  });
  beforeEach(async () => {
    dialogs?.dispose();
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(site.url, []));
    dialogs = watchDialogs(session.page);
    await session.page.goto(site.url, { waitUntil: 'load' });
  });

  /** Runs the steps as a run does (each told of the dialog steps after it); stops at the first that fails. */
  async function runAll(raws: Array<Record<string, unknown>>, timeoutMs = 2_000): Promise<StepResult[]> {
    const steps = raws.map(step);
    const results: StepResult[] = [];
    for (const [index, planned] of steps.entries()) {
      const outcome = await runStep(session.page, planned, {
        baseUrl: site.url,
        timeoutMs,
        testValue: () => undefined,
        allowlist: session.allowlist,
        dialogs,
        opensDialogs: dialogStepsAfter(steps, index),
      });
      results.push(outcome);
      if (outcome.status === 'failed') break;
    }
    return results;
  }
  const passed = (results: StepResult[]) => results.map((outcome) => (outcome.status === 'passed' ? 'passed' : outcome.message));

  it('answers an alert as the step after the click says, and checks its message', async () => {
    const steps = [click('Save'), { action: 'dialog', accept: true, text: 'saved!' }, result('Saved')];
    expect(passed(await runAll(steps))).toEqual(['passed', 'passed', 'passed']);
  });

  it('accepts or cancels a confirm, and types into a prompt or cancels it', async () => {
    const runs = [
      [click('Delete all'), { action: 'dialog', accept: false, text: 'Delete all items?' }, result('Kept')],
      [click('Delete all'), { action: 'dialog', accept: true, text: 'Delete all items?' }, result('Deleted')],
      [click('Rename'), { action: 'dialog', accept: true, promptText: 'Ada', text: 'New name?' }, result('Renamed to Ada')],
      [click('Rename'), { action: 'dialog', accept: false }, result('Rename cancelled')],
      // Accepted with nothing typed, a prompt gives its default.
      [click('Rename'), { action: 'dialog', accept: true }, result('Renamed to Untitled')],
    ];
    for (const steps of runs) expect(passed(await runAll(steps))).toEqual(['passed', 'passed', 'passed']);
  });

  it('waits for a dialog that opens after the click, and answers two from one click in order', async () => {
    expect(passed(await runAll([click('Check later'), { action: 'dialog', accept: true, text: 'Checked at last' }, result('Checked')]))).toEqual(['passed', 'passed', 'passed']);
    const twice = [click('Twice'), { action: 'dialog', accept: true, text: 'First of two' }, { action: 'dialog', accept: true, text: 'Second of two' }, result('Both shown')];
    expect(passed(await runAll(twice))).toEqual(['passed', 'passed', 'passed', 'passed']);
  });

  it('right-clicks the element a look names ("the dashed box") for its context menu, kept as a CSS locator', async () => {
    const box = { by: 'description', name: 'the dashed box', exact: false };
    const results = await runAll([{ action: 'rightClick', target: box }, { action: 'dialog', accept: true, text: 'Menu opened' }, result('Right-clicked')]);
    expect(passed(results)).toEqual(['passed', 'passed', 'passed']);
    expect(results[0]!.locator).toEqual({ strategy: 'css', name: '#menu-area', exact: false });
    // No element has a dotted border: nothing is guessed.
    const none = await runAll([{ action: 'rightClick', target: { by: 'description', name: 'the dotted box', exact: false } }], 1_500);
    expect(none[0]).toMatchObject({ status: 'failed', kind: 'step_unresolvable' });
  });

  it('fails a dialog that says something else with what it expected and what it said', async () => {
    await session.page.goto(`${site.url}?bug=1`, { waitUntil: 'load' });
    const results = await runAll([click('Save'), { action: 'dialog', accept: true, text: 'Saved!' }]);
    expect(results[1]).toEqual({
      status: 'failed',
      kind: 'assertion_failed',
      message: 'An alert saying "Saved?" opened; expected a dialog saying "Saved!"',
      comparison: { expected: 'Saved!', actual: ['Saved?'] },
    });
  });

  it('fails when no dialog opens, and when one opens that no step expected (dismissed)', async () => {
    const none = await runAll([{ action: 'click', target: { by: 'role', role: 'heading', name: 'Result' } }, { action: 'dialog', accept: true, text: 'Saved!' }], 600);
    expect(none[1]).toEqual({
      status: 'failed',
      kind: 'assertion_failed',
      message: 'No dialog opened; expected a dialog saying "Saved!"',
      comparison: { expected: 'a dialog saying "Saved!"', actual: ['no dialog'] },
    });
    const stray = await runAll([click('Delete all')]);
    expect(stray[0]).toMatchObject({
      status: 'failed',
      kind: 'assertion_failed',
      message: 'A confirm saying "Delete all items?" opened, which the task did not expect (dismissed)',
      comparison: { expected: 'no dialog', actual: ['a confirm saying "Delete all items?"'] },
    });
    // Dismissed as Playwright would: the page went on with Cancel, and nothing stalled.
    expect(passed(await runAll([result('Kept')]))).toEqual(['passed']);
  });
});
