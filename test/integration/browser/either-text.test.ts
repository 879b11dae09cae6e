/**
 * "Either A or B" in real Chromium and in the generated source: any one of the texts holds the expectation, on the
 * page, in an element or among the page's headings; none of them fails it, naming them all.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema } from '../../../src/core/check.js';
import { stepSchema } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startDialogSite, type DialogSite } from '../../support/dialog-site.js';

describe('expectText with alternatives', () => {
  let site: DialogSite;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    site = await startDialogSite();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    session = await browsers.openSession(createHostAllowlist(site.url, []));
    await session.page.goto(site.url, { waitUntil: 'load' });
  });
  afterAll(async () => {
    await session?.close();
    await browsers?.close();
    await site?.close();
  });

  const run = (raw: Record<string, unknown>): Promise<StepResult> =>
    runStep(session.page, stepSchema.parse({ description: 'expect', ...raw }), { baseUrl: site.url, timeoutMs: 800, testValue: () => undefined, allowlist: session.allowlist });

  it('holds when any one of the texts is shown, on the page, in an element or in a heading', async () => {
    const outcomes = await Promise.all([
      run({ action: 'expectText', text: 'Not here', orText: ['dialogs'] }),
      run({ action: 'expectText', text: 'Result', orText: ['Not here'], role: 'heading' }),
      run({ action: 'expectText', text: 'Nope', orText: ['Rename'], target: { by: 'role', role: 'button', name: 'Rename' } }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['passed', 'passed', 'passed']);
  });

  it('fails when none is shown, naming them all', async () => {
    expect(await run({ action: 'expectText', text: 'Heads', orText: ['Tails'] })).toMatchObject({
      status: 'failed',
      kind: 'assertion_failed',
      message: 'The page does not show "Heads" or "Tails"',
      comparison: { expected: 'Heads" or "Tails' },
    });
  });

  it('is one pattern of all the texts in the generated source', () => {
    const check = compiledCheckSchema.parse({ steps: [{ step: stepSchema.parse({ action: 'expectText', description: 'Heads or tails', text: 'Heads', orText: ['Tails up'] }) }], successCriteria: [] });
    const source = generatePlaywrightSource({ name: 'Coin', check, baseUrl: site.url, testValueSecretRefs: {}, evidenceProbeRefs: {} });
    expect(source).toContain(`await expect(page.locator('body')).toContainText(anyTextPattern(["Heads", "Tails up"]), { useInnerText: true, timeout: STEP_TIMEOUT_MS });`);
    expect(source).toContain('function anyTextPattern(texts: string[]): RegExp {');
    expect(source).toContain('function textPattern(text: string): RegExp {');
  });
});
