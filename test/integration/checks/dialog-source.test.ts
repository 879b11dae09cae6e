/**
 * A check with the browser's dialogs and a right click on a box only its look names, compiled and run both ways on test/support/dialog-site.ts: recorded, replayed
 * with its stored locators, and as generated source under the real `playwright test`; with the app's bug switched on
 * (another alert message, the confirm's answer inverted) both fail at the alert, saying what it said.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { dialogStepsAfter, watchDialogs } from '../../../src/browser/dialogs.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema, type CompiledCheck, type CompiledStep } from '../../../src/core/check.js';
import { stepSchema } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startDialogSite, type DialogSite } from '../../support/dialog-site.js';
import { createPlaywrightProject, type PlaywrightProject } from './playwright-project.js';

const STEP_TIMEOUT_MS = 5_000;
const RUN_TIMEOUT_MS = 90_000;
const click = (name: string) => ({ action: 'click', target: { by: 'role', role: 'button', name, exact: true } });

const STEPS: Array<Record<string, unknown>> = [
  { action: 'navigate', url: '/' },
  click('Save'),
  { action: 'dialog', accept: true, text: 'Saved!' },
  click('Delete all'),
  { action: 'dialog', accept: false, text: 'Delete all items?' },
  { action: 'expectText', text: 'Kept' },
  click('Rename'),
  { action: 'dialog', accept: true, promptText: 'Ada', text: 'New name?' },
  { action: 'expectText', text: 'Renamed to Ada' },
  click('Twice'),
  { action: 'dialog', accept: true, text: 'First of two' },
  { action: 'dialog', accept: true, text: 'Second of two' },
  { action: 'expectText', text: 'Both shown' },
  { action: 'rightClick', target: { by: 'description', name: 'the dashed box' } },
  { action: 'dialog', accept: true, text: 'Menu opened' },
  { action: 'expectText', text: 'Right-clicked' },
];

describe('dialogs, compiled: replay and generated source', () => {
  let site: DialogSite;
  let browsers: BrowserPool;
  let project: PlaywrightProject | undefined;
  let check: CompiledCheck;

  /** Runs steps as a run does, in a fresh session; a step with a stored locator uses it (a replay). */
  async function runSteps(steps: readonly CompiledStep[]): Promise<StepResult[]> {
    const session = await browsers.openSession(createHostAllowlist(site.url, []));
    const dialogs = watchDialogs(session.page);
    try {
      const results: StepResult[] = [];
      const planned = steps.map(({ step }) => step);
      for (const [index, { step, locator }] of steps.entries()) {
        const context = { baseUrl: site.url, timeoutMs: STEP_TIMEOUT_MS, testValue: () => undefined, allowlist: session.allowlist, locator, dialogs, opensDialogs: dialogStepsAfter(planned, index) };
        const result = await runStep(session.page, step, context);
        results.push(result);
        if (result.status === 'failed') break;
      }
      return results;
    } finally {
      dialogs.dispose();
      await session.close();
    }
  }
  /** The check as it would run on the app with its bug switched on. */
  const broken = (): CompiledCheck => ({ ...check, steps: check.steps.map((compiled, index) => (index === 0 ? { step: { ...compiled.step, url: '/?bug=1' } as CompiledStep['step'] } : compiled)) });

  beforeAll(async () => {
    site = await startDialogSite();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    const planned = STEPS.map((raw): CompiledStep => ({ step: stepSchema.parse({ description: String(raw.action), ...raw }) }));
    const results = await runSteps(planned);
    expect(results.map((result, index) => [index + 1, result.status === 'passed' ? 'passed' : result.message])).toEqual(planned.map((_, index) => [index + 1, 'passed']));
    // The dashed box has no role, label or text: its look found it, kept as a CSS locator.
    expect(results[13]!.locator).toEqual({ strategy: 'css', name: '#menu-area', exact: false });
    check = compiledCheckSchema.parse({ steps: planned.map(({ step }, index) => ({ step, ...(results[index]!.locator ? { locator: results[index]!.locator } : {}) })), successCriteria: [] });
  }, RUN_TIMEOUT_MS);
  afterAll(async () => {
    await project?.remove();
    await browsers?.close();
    await site?.close();
  });

  it('replays with the stored locators; with the bug on, the alert step fails with what the alert said', async () => {
    expect((await runSteps(check.steps)).map((result) => result.status)).toEqual(check.steps.map(() => 'passed'));
    const failed = await runSteps(broken().steps);
    expect(failed).toHaveLength(3);
    expect(failed[2]).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: 'Saved!', actual: ['Saved?'] } });
  }, RUN_TIMEOUT_MS);

  it('passes as generated source under playwright test, and fails there at the alert with the bug on', async () => {
    const source = (compiled: CompiledCheck) => generatePlaywrightSource({ name: 'Dialogs', check: compiled, baseUrl: site.url, stepTimeoutMs: STEP_TIMEOUT_MS, testValueSecretRefs: {}, evidenceProbeRefs: {} });
    project = await createPlaywrightProject({ 'dialogs.spec.ts': source(check) });
    expect(await project.run({})).toMatchObject({ code: 0, stats: { expected: 1, unexpected: 0, skipped: 0 } });
    await project.remove();

    const wrong = source(broken());
    project = await createPlaywrightProject({ 'dialogs.spec.ts': wrong });
    const failing = await project.run({});
    expect(failing).toMatchObject({ code: 1, stats: { expected: 0, unexpected: 1 } });
    expect(failing.output).toContain('The dialog says "Saved?"');
    const line = wrong.split('\n').findIndex((text) => text.trim() === 'await dialogs.opened("Saved!");') + 1;
    expect(failing.output).toContain(`dialogs.spec.ts:${line}:`);
  }, RUN_TIMEOUT_MS);
});
