import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepContext } from '../../../src/browser/step-runner.js';
import type { ResolvedLocator } from '../../../src/core/check.js';
import { planSchema, type PlanStep } from '../../../src/core/plan.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';
import { startOriginSite, type OriginSite } from '../../support/origin-sites.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';

/** The demo shop's purchase, as a planner would write it: targets as a person names them, secrets by name. */
const JOURNEY = planSchema.parse({
  steps: [
    { action: 'navigate', description: 'Go to the sign-in page', url: '/login' },
    { action: 'fill', description: 'Type the demo email into Email', target: { by: 'label', name: 'Email' }, value: { kind: 'testValue', name: 'demoEmail' } },
    { action: 'fill', description: 'Type the demo password into Password', target: { by: 'label', name: 'Password' }, value: { kind: 'testValue', name: 'demoPassword' } },
    { action: 'click', description: 'Click Sign in', target: { by: 'text', name: 'Sign in' } },
    { action: 'expectUrl', description: 'The products page is open', contains: '/products', criterion: 'signed_in' },
    { action: 'click', description: 'Add the Desk Lamp to the cart', target: { by: 'text', name: 'Add Desk Lamp to cart' } },
    { action: 'navigate', description: 'Open the cart', url: '/cart' },
    { action: 'fill', description: 'Type SAVE10 into Coupon', target: { by: 'label', name: 'Coupon' }, value: { kind: 'literal', text: 'SAVE10' } },
    { action: 'click', description: 'Click Apply', target: { by: 'text', name: 'Apply' } },
    { action: 'expectText', description: 'The total shows $90', text: 'Total: $90', criterion: 'total_shows_90' },
    { action: 'expectState', description: 'Checkout is enabled', target: { by: 'role', role: 'button', name: 'Checkout' }, state: 'enabled' },
  ],
  successCriteria: [
    { key: 'signed_in', description: 'The demo user is signed in' },
    { key: 'total_shows_90', description: 'The total shows $90' },
  ],
});

describe('step runner on the demo shop', () => {
  let demo: DemoApp;
  let browsers: BrowserPool;
  let session: BrowserSession;
  const secrets: Record<string, string> = { demoEmail: DEFAULT_ACCOUNT.email, demoPassword: DEFAULT_ACCOUNT.password };

  beforeAll(async () => {
    demo = await startDemoApp();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await browsers.close();
    await demo.close();
  });
  beforeEach(async () => {
    demo.reset();
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(demo.url, []));
  });

  const context = (overrides: Partial<StepContext> = {}): StepContext => ({
    baseUrl: demo.url,
    timeoutMs: 3_000,
    testValue: (name) => secrets[name],
    allowlist: session.allowlist,
    ...overrides,
  });

  async function runAll(steps: readonly PlanStep[], locators: (ResolvedLocator | undefined)[] = []) {
    const results = [];
    for (const [index, step] of steps.entries()) {
      const result = await runStep(session.page, step, context({ locator: locators[index] }));
      results.push(result);
      if (result.status === 'failed') break;
    }
    return results;
  }

  it('drives the whole journey, resolving each target the way it was described', async () => {
    const results = await runAll(JOURNEY.steps);
    expect(results.map((result) => result.status)).toEqual(JOURNEY.steps.map(() => 'passed'));
    expect(results.map((result) => result.locator)).toEqual([
      undefined,
      { strategy: 'label', name: 'Email', exact: false },
      { strategy: 'label', name: 'Password', exact: false },
      { strategy: 'role', role: 'button', name: 'Sign in', exact: false },
      undefined,
      { strategy: 'role', role: 'button', name: 'Add Desk Lamp to cart', exact: false },
      undefined,
      { strategy: 'label', name: 'Coupon', exact: false },
      { strategy: 'role', role: 'button', name: 'Apply', exact: false },
      undefined,
      { strategy: 'role', role: 'button', name: 'Checkout', exact: false },
    ]);
  });

  it('replays with the stored locators and gets the same result', async () => {
    const first = await runAll(JOURNEY.steps);
    await session.close();
    session = await browsers.openSession(createHostAllowlist(demo.url, []));
    demo.reset();
    const replay = await runAll(JOURNEY.steps, first.map((result) => result.locator));
    expect(replay.map((result) => result.status)).toEqual(JOURNEY.steps.map(() => 'passed'));
  });

  it('refuses to guess between several matches', async () => {
    const results = await runAll([...JOURNEY.steps.slice(0, 5), { action: 'click', description: 'Click Add', target: { by: 'text', name: 'Add', exact: false } }]);
    expect(results.at(-1)).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringMatching(/^3 elements match "Add"/) });
  });

  it('reports a target that is not on the page', async () => {
    const [result] = await runAll([{ action: 'click', description: 'Click Teleport', target: { by: 'text', name: 'Teleport', exact: false } }]);
    // The page is about:blank: nothing matches, after the step's wait.
    expect(result).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringContaining('Nothing on the page matches "Teleport"') });
  });

  it('fails an expectation that does not hold, naming what it saw', async () => {
    const results = await runAll([
      { action: 'navigate', description: 'Go to pricing', url: '/pricing' },
      { action: 'expectText', description: 'Shows $1,000', text: '$1,000' },
    ]);
    expect(results[1]).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: 'The page does not show "$1,000"' });
    const perMonth = { by: 'text', name: 'per month', exact: false } as const;
    const counted = await runAll([
      { action: 'navigate', description: 'Go to pricing', url: '/pricing' },
      { action: 'expectCount', description: 'Three plans', target: perMonth, count: 3 },
    ]);
    expect(counted.map((result) => result.status)).toEqual(['passed', 'passed']);
    const miscounted = await runStep(session.page, { action: 'expectCount', description: 'Four plans', target: perMonth, count: 4 }, context({ timeoutMs: 300 }));
    expect(miscounted).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: 'Expected 4 of "per month", found 3' });
  });

  it('stops at a test value that is not configured, without typing anything', async () => {
    const results = await runAll(JOURNEY.steps.slice(0, 2).map((step) => step), []);
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed']);
    const missing = await runStep(session.page, JOURNEY.steps[2]!, context({ testValue: () => undefined }));
    expect(missing).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: 'The test value "demoPassword" is not configured' });
    expect(await session.page.getByLabel('Password').inputValue()).toBe('');
  });

  it("acts on a replay's stored field without counting it first, and still tells a gone, a doubled and a disabled field apart", async () => {
    const fill = (label: string): PlanStep => ({ action: 'fill', description: `Type into ${label}`, target: { by: 'label', name: label, exact: true }, value: { kind: 'literal', text: 'x' } });
    const stored = (name: string): Partial<StepContext> => ({ locator: { strategy: 'label', name, exact: true }, timeoutMs: 500 });
    await session.page.setContent(`
      <label>Twice <input></label> <label>Twice <input></label> <label>Off <input disabled></label> <div id="later"></div>
      <script>setTimeout(() => { document.getElementById('later').innerHTML = '<label>Later <input></label>'; }, 200);</script>`);

    expect(await runStep(session.page, fill('Later'), context(stored('Later')))).toMatchObject({ status: 'passed', locator: { strategy: 'label', name: 'Later' } });
    expect(await session.page.getByLabel('Later').inputValue()).toBe('x');
    expect(await runStep(session.page, fill('Gone'), context(stored('Gone')))).toMatchObject({
      status: 'failed',
      kind: 'step_unresolvable',
      message: 'The stored target (label "Gone") matches 0 elements now, not one',
      locator: { strategy: 'label', name: 'Gone' },
    });
    expect(await runStep(session.page, fill('Twice'), context(stored('Twice')))).toMatchObject({
      status: 'failed',
      kind: 'step_unresolvable',
      message: 'The stored target (label "Twice") matches 2 elements now, not one',
    });
    // There, once, but it cannot take text: the action's own failure, not a target that is gone (nothing to heal).
    const off = await runStep(session.page, fill('Off'), context(stored('Off')));
    expect(off).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: expect.stringContaining('Timeout 500ms exceeded') });
  });

  it('fails a stored locator that no longer matches one element, instead of guessing', async () => {
    await runAll([{ action: 'navigate', description: 'Go to pricing', url: '/pricing' }]);
    const result = await runStep(session.page, { action: 'click', description: 'Click Buy', target: { by: 'text', name: 'Buy', exact: false } }, context({ locator: { strategy: 'role', role: 'button', name: 'Buy', exact: true }, timeoutMs: 500 }));
    expect(result).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringContaining('matches 0 elements now') });
  });
});

describe('step runner at the edge of the allowlist', () => {
  let target: OriginSite;
  let other: OriginSite;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    [target, other] = await Promise.all([startOriginSite(), startOriginSite()]);
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await browsers.close();
    await Promise.all([target.close(), other.close()]);
  });
  beforeEach(async () => {
    other.hits.length = 0;
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(target.url, []));
  });

  const run = (step: PlanStep) => runStep(session.page, step, { baseUrl: target.url, timeoutMs: 3_000, testValue: () => undefined, allowlist: session.allowlist });
  const go = (url: string): PlanStep => ({ action: 'navigate', description: `Go to ${url}`, url });
  const blockedAt = (port: number) => ({
    status: 'failed',
    kind: 'navigation_blocked',
    message: expect.stringContaining(`The navigation ended on 127.0.0.1:${port}, which the run may not reach (allowed: 127.0.0.1:${target.port})`),
  });

  it('passes a navigation that stays on the allowed origin', async () => {
    expect(await run(go('/'))).toEqual({ status: 'passed' });
    expect(await run(go(`/redir?to=${encodeURIComponent('/link')}`))).toEqual({ status: 'passed' });
  });

  it('fails a navigation redirected to another port of the same host as navigation_blocked', async () => {
    expect(await run(go(`/redir?to=${encodeURIComponent(`${other.url}/landed`)}`))).toMatchObject(blockedAt(other.port));
    expect(other.hits).toEqual([]);
  });

  it('fails one redirected to https elsewhere, whose refused tunnel leaves no page at that URL', async () => {
    expect(await run(go(`/redir?to=${encodeURIComponent(`https://127.0.0.1:${other.port}/landed`)}`))).toMatchObject(blockedAt(other.port));
    expect(other.hits).toEqual([]);
  });

  it('fails a navigation straight to a blocked origin, and a click on a link that leads there', async () => {
    expect(await run(go(`${other.url}/direct`))).toMatchObject(blockedAt(other.port));
    expect(await run(go(`/link?to=${encodeURIComponent(`${other.url}/clicked`)}`))).toEqual({ status: 'passed' });
    expect(await run({ action: 'click', description: 'Click Elsewhere', target: { by: 'text', name: 'Elsewhere', exact: true } })).toMatchObject(blockedAt(other.port));
    expect(other.hits).toEqual([]);
  });
});
