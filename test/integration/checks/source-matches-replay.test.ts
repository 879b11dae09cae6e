/**
 * The generated source means what the replay means: one check that uses the step kinds the purchase does not
 * (key presses, waiting, validity, states, a hidden target, counts, text in an element, whitespace and case in
 * expected text) passes both as a replay (`runStep` with the stored locators) and as generated source under
 * `playwright test`, on the same demo shop; and a changed expectation fails both.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep } from '../../../src/browser/step-runner.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import type { CompiledCheck } from '../../../src/core/check.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';
import { DEMO_SHOP_REFS, DEMO_SHOP_TOUR } from './demo-shop-check.js';
import { createPlaywrightProject, type PlaywrightProject } from './playwright-project.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';

const STEP_TIMEOUT_MS = 3_000;
const SECRETS: Record<string, string> = { demoEmail: DEFAULT_ACCOUNT.email, demoPassword: DEFAULT_ACCOUNT.password };

/** The tour with one expectation changed so it cannot hold: four add-to-cart buttons instead of three. */
const WRONG_COUNT: CompiledCheck = {
  ...DEMO_SHOP_TOUR,
  steps: DEMO_SHOP_TOUR.steps.map((compiled, index) =>
    index === 8 && compiled.step.action === 'expectCount' ? { ...compiled, step: { ...compiled.step, count: 4 } } : compiled,
  ),
};

describe('generated source and replay of the same check', () => {
  let shop: DemoApp;
  let browsers: BrowserPool;
  let project: PlaywrightProject;

  const source = (name: string, check: CompiledCheck, baseUrl: string) =>
    generatePlaywrightSource({ name, check, baseUrl, stepTimeoutMs: STEP_TIMEOUT_MS, ...DEMO_SHOP_REFS });

  /** Each step's outcome in a fresh browser session, as a replay runs them: the stored locators, no planner. */
  async function replay(check: CompiledCheck): Promise<string[]> {
    const session = await browsers.openSession(createHostAllowlist(shop.url, []));
    try {
      const outcomes: string[] = [];
      for (const { step, locator } of check.steps) {
        const result = await runStep(session.page, step, { baseUrl: shop.url, timeoutMs: STEP_TIMEOUT_MS, testValue: (name) => SECRETS[name], locator, allowlist: session.allowlist });
        outcomes.push(result.status === 'passed' ? 'passed' : `failed: ${result.message}`);
        if (result.status === 'failed') break;
      }
      return outcomes;
    } finally {
      await session.close();
    }
  }

  beforeAll(async () => {
    // Plain HTTP: this check has no probe, and the replay's browser pool trusts no test CA.
    shop = await startDemoApp();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    project = await createPlaywrightProject({
      'tour.spec.ts': source('Demo shop tour', DEMO_SHOP_TOUR, shop.url),
      'wrong-count.spec.ts': source('Demo shop tour, wrong count', WRONG_COUNT, shop.url),
    });
  });
  afterAll(async () => {
    await project?.remove();
    await browsers?.close();
    await shop?.close();
  });

  it(
    'passes the tour both ways, and fails the changed tour both ways at the same step',
    async () => {
      expect(await replay(DEMO_SHOP_TOUR)).toEqual(DEMO_SHOP_TOUR.steps.map(() => 'passed'));
      const wrong = await replay(WRONG_COUNT);
      expect(wrong).toHaveLength(9);
      expect(wrong[8]).toBe('failed: Expected 4 of "to cart", found 3');

      const outcome = await project.run({ DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password });
      expect(outcome).toMatchObject({ code: 1, stats: { expected: 1, unexpected: 1 } });
      expect(outcome.output).toMatch(/✘|1\) .*wrong-count\.spec\.ts:\d+:\d+ › Demo shop tour, wrong count/);
      expect(outcome.output).toContain('// 9. Three add-to-cart buttons');
      expect(outcome.output).toMatch(/Expected: 4\s+Received: 3/);
    },
    60_000,
  );
});
