/**
 * The sign-in submit's form-scoped locator (`within: "passwordForm"`) means the same in a replay and in the generated
 * Playwright file: a check compiled from "log in as … / …" signs in to the demo shop both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep } from '../../../src/browser/step-runner.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema } from '../../../src/core/check.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';
import { DEMO_SHOP_REFS } from './demo-shop-check.js';
import { createPlaywrightProject, type PlaywrightProject } from './playwright-project.js';

const STEP_TIMEOUT_MS = 3_000;
const SECRETS: Record<string, string> = { demoEmail: DEFAULT_ACCOUNT.email, demoPassword: DEFAULT_ACCOUNT.password };

const SIGN_IN = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Go to /login', url: '/login' } },
    { step: { action: 'fill', description: 'Fill Email', target: { by: 'label', name: 'Email' }, value: { kind: 'testValue', name: 'demoEmail' } }, locator: { strategy: 'label', name: 'Email', exact: false } },
    { step: { action: 'fill', description: 'Fill Password', target: { by: 'label', name: 'Password' }, value: { kind: 'testValue', name: 'demoPassword' } }, locator: { strategy: 'label', name: 'Password', exact: false } },
    {
      step: { action: 'click', description: 'Click the sign-in button', target: { by: 'role', role: 'button', name: 'Log in', purpose: 'signIn' } },
      locator: { strategy: 'role', role: 'button', name: 'Sign in', exact: true, within: 'passwordForm' },
    },
    { step: { action: 'expectUrl', description: 'The products page is open', contains: '/products', criterion: 'signed_in' } },
  ],
  successCriteria: [{ key: 'signed_in', description: 'The demo user is signed in' }],
});

describe('the form-scoped sign-in locator, replayed and as generated source', () => {
  let shop: DemoApp;
  let browsers: BrowserPool;
  let project: PlaywrightProject;

  beforeAll(async () => {
    shop = await startDemoApp();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    project = await createPlaywrightProject({
      'sign-in.spec.ts': generatePlaywrightSource({ name: 'Log in', check: SIGN_IN, baseUrl: shop.url, stepTimeoutMs: STEP_TIMEOUT_MS, ...DEMO_SHOP_REFS }),
    });
  });
  afterAll(async () => {
    await project?.remove();
    await browsers?.close();
    await shop?.close();
  });

  it('signs in both ways', async () => {
    const session = await browsers.openSession(createHostAllowlist(shop.url, []));
    const outcomes: string[] = [];
    try {
      for (const { step, locator } of SIGN_IN.steps) {
        const result = await runStep(session.page, step, { baseUrl: shop.url, timeoutMs: STEP_TIMEOUT_MS, testValue: (name) => SECRETS[name], locator, allowlist: session.allowlist });
        outcomes.push(result.status === 'passed' ? 'passed' : `failed: ${result.message}`);
      }
    } finally {
      await session.close();
    }
    expect(outcomes).toEqual(SIGN_IN.steps.map(() => 'passed'));

    const outcome = await project.run({ DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password });
    expect([outcome.code, outcome.stats]).toMatchObject([0, { expected: 1, unexpected: 0 }]);
  }, 60_000);
});
