/**
 * The run-time side-effect guard on one step, in real Chromium against the demo shop's subscription page: what it
 * reads is the control that acts (a replay's stored text locator finds the span inside the button), and what a
 * page calls a control decides, not what the plan called it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { writingFormAction, type SideEffectGuard } from '../../../src/browser/side-effect-guard.js';
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

  it('finds the same writing action as the DOM does for each of 24 controls, reading only attributes and XPath', async () => {
    // The guard reads a control's form without running script in the page (side-effect-guard.ts says why). What it
    // reads must be what the DOM itself says: each control is read both ways, the DOM's answer (its `form`,
    // `formMethod`/`method`, `formAction`/`action`, in the page) being the oracle. The page keeps its address.
    const page = session.page;
    await page.setContent(`
      <form id="post" method="post" action="/account/subscription/cancel">
        <button id="c1">default type</button> <button id="c2" type="SUBMIT">submit</button> <button id="c3" type="button">button</button>
        <button id="c4" type="reset">reset</button> <button id="c5" type="bogus">unknown type</button>
        <input id="c6" type="submit" value="input submit"> <input id="c7" type="image" alt="image"> <input id="c8" name="q">
        <textarea id="c9"></textarea> <select id="c10"><option>a</option></select>
        <button id="c11" formaction="delete-all">relative formaction</button> <button id="c12" formmethod="get">formmethod get</button>
        <button id="c13" formaction="">empty formaction</button> <a id="c14" href="/x">a link</a>
      </form>
      <form id="get" action="/search"><button id="c15">get form</button> <button id="c16" formmethod="POST">formmethod post</button></form>
      <form id="dialog" method="dialog"><button id="c17">dialog</button></form>
      <form id="bad" method="PUT" action="/account/delete"><button id="c18">invalid method</button></form>
      <form id="empty" method="post"><button id="c19">no action</button></form>
      <form id='it"s' method="post" action="/owner/quotes/archive"></form>
      <button id="c20" form="post">owned by id outside</button> <button id="c21" form="nowhere">owner missing</button>
      <button id="c22">no form</button> <input id="c23" form='it"s'>
      <form id="outer" method="post" action="/remove/it"><button id="c24" form="get">owner elsewhere</button></form>`);
    const ids = Array.from({ length: 24 }, (_unused, index) => `c${index + 1}`);
    const read = await Promise.all(ids.map((id) => writingFormAction(page.locator(`[id="${id}"]`))));
    const oracle = await page.evaluate((controls) => controls.map((id) => {
      type Form = { action: string; method: string };
      type Control = { form?: Form | null; type?: string; formMethod?: string; formAction?: string; tagName: string; hasAttribute(name: string): boolean };
      const control = (globalThis as unknown as { document: { getElementById(id: string): Control } }).document.getElementById(id);
      const tag = control.tagName.toLowerCase();
      const sends = (tag === 'button' && control.type === 'submit') || tag === 'input' || tag === 'textarea' || tag === 'select';
      if (!sends || !control.form) return undefined;
      const method = (control.hasAttribute('formmethod') ? control.formMethod! : control.form.method).toLowerCase();
      if (method === 'get' || method === 'dialog') return undefined;
      return control.hasAttribute('formaction') ? control.formAction : control.form.action;
    }), ids);
    expect(read).toEqual(oracle);
    // What it should be, spelled out for the cases that matter.
    const at = (id: string) => read[ids.indexOf(id)];
    expect(at('c1')).toBe(`${demo.url}/account/subscription/cancel`);
    expect(at('c11')).toBe(`${demo.url}/account/delete-all`); // relative to the page, /account/subscription
    expect([at('c3'), at('c4'), at('c12'), at('c14'), at('c15'), at('c17'), at('c18'), at('c21'), at('c22'), at('c24')]).toEqual(Array(10).fill(undefined));
    expect([at('c16'), at('c20'), at('c23')]).toEqual([`${demo.url}/search`, `${demo.url}/account/subscription/cancel`, `${demo.url}/owner/quotes/archive`]);
  });
});
