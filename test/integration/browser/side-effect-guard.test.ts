/**
 * The run-time side-effect guard on one step, in real Chromium against the demo shop's subscription page: what it
 * reads is the control that acts (a replay's stored text locator finds the span inside the button), and what a
 * page calls a control decides, not what the plan called it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import type { SideEffectGuard } from '../../../src/browser/side-effect-guard.js';
import { runStep, type StepContext } from '../../../src/browser/step-runner.js';
import type { ResolvedLocator } from '../../../src/core/check.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { kindsNamedByLabel } from '../../../src/planner/side-effect-floor.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';

const click = (name: string): PlanStep => ({ action: 'click', description: `Click ${name}`, target: { by: 'text', name, exact: false } });
const guard = (allowed: SideEffectGuard['allowed']): SideEffectGuard => ({ kindsNamedBy: kindsNamedByLabel, allowed });

describe('side-effect guard on a step', () => {
  let demo: DemoApp;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    demo = await startDemoApp();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
    await demo.close();
  });
  beforeEach(async () => {
    demo.reset();
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(demo.url, []));
    await session.page.goto(`${demo.url}/account/subscription`);
  });

  const context = (overrides: Partial<StepContext>): StepContext => ({ baseUrl: demo.url, timeoutMs: 3_000, testValue: () => undefined, allowlist: session.allowlist, ...overrides });
  // A replay's stored locator, found by text: it is the span that holds the button's label.
  const byText: ResolvedLocator = { strategy: 'text', name: 'Cancel subscription', exact: false };

  it('reads the button a text locator found the label of, and stops before it', async () => {
    const result = await runStep(session.page, click('Cancel subscription'), context({ locator: byText, sideEffects: guard([]) }));

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('its name "Cancel subscription" names a real side effect (account change)') });
    expect(demo.subscription()).toEqual({ plan: 'Pro', state: 'active', cancellations: 0 });
  });

  it('stops it when the answers allowed another kind only', async () => {
    const result = await runStep(session.page, click('Cancel subscription'), context({ locator: byText, sideEffects: guard(['purchase']) }));

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('(the answers allowed: purchase)') });
    expect(demo.subscription().cancellations).toBe(0);
  });

  it('lets it act when an answer allowed that kind, or when a plan from before the list allowed side effects', async () => {
    for (const allowed of [['account_change'], 'all'] as const) {
      demo.reset();
      await session.page.goto(`${demo.url}/account/subscription`);
      const result = await runStep(session.page, click('Cancel subscription'), context({ locator: byText, sideEffects: guard(allowed) }));

      expect([allowed, result.status]).toEqual([allowed, 'passed']);
      expect(demo.subscription()).toMatchObject({ state: 'cancelled', cancellations: 1 });
    }
  });

  it('stops a replay whose exact role locator names the side effect, or whose form does, without reading the name again', async () => {
    const byRole = (name: string): ResolvedLocator => ({ strategy: 'role', role: 'button', name, exact: true });
    const clickRole = (name: string): PlanStep => ({ action: 'click', description: `Click ${name}`, target: { by: 'role', role: 'button', name, exact: true } });

    expect(await runStep(session.page, clickRole('Cancel subscription'), context({ locator: byRole('Cancel subscription'), sideEffects: guard([]) }))).toMatchObject({
      status: 'failed',
      kind: 'side_effect_blocked',
      message: expect.stringContaining('its name "Cancel subscription"'),
    });
    expect(await runStep(session.page, clickRole('Confirm'), context({ locator: byRole('Confirm'), sideEffects: guard([]) }))).toMatchObject({
      status: 'failed',
      kind: 'side_effect_blocked',
      message: expect.stringContaining(`its form's action ${demo.url}/account/subscription/cancel`),
    });
    expect(demo.subscription().cancellations).toBe(0);
  });

  it('stops a key press that submits the form of a side effect, and lets Tab through', async () => {
    const confirm: ResolvedLocator = { strategy: 'role', role: 'button', name: 'Confirm', exact: true };
    const press = (key: string): PlanStep => ({ action: 'press', description: `Press ${key}`, key, target: { by: 'role', role: 'button', name: 'Confirm', exact: true } });

    expect(await runStep(session.page, press('Tab'), context({ locator: confirm, sideEffects: guard([]) }))).toMatchObject({ status: 'passed' });
    expect(await runStep(session.page, press('Enter'), context({ locator: confirm, sideEffects: guard([]) }))).toMatchObject({
      status: 'failed',
      kind: 'side_effect_blocked',
      message: expect.stringContaining("its form's action"),
    });
    expect(demo.subscription().cancellations).toBe(0);
  });
});
