/**
 * "Log in as X / Y" on pages whose sign-in button says something else, in real Chromium: the planner's sign-in steps
 * run through the step runner, the click finds the form's submit control by purpose, and the locator it records
 * replays the same control. Pages that put Sign up, Forgot password and "Sign in with Google" next to the real
 * submit get the real submit; a page with none fails as step_unresolvable without clicking anything.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepContext, type StepResult } from '../../../src/browser/step-runner.js';
import type { ResolvedLocator } from '../../../src/core/check.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { planTask } from '../../../src/planner/plan-task.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';

const FIELDS = '<label for="email">Email</label><input id="email" name="email" type="email"><label for="password">Password</label><input id="password" name="password" type="password">';
/** A button that is not a submit: clicking it still leaves a trace (the page goes to /done?via=…). */
const jsButton = (label: string, via: string) => `<button type="button" onclick="location.href='/done?via=${via}'">${label}</button>`;

/** The variants: each form submits to /done (GET), so the URL says which control submitted it. */
const PAGES: Record<string, string> = {
  // Sign up, Sign in with Google (a <button> without a type: it would submit the form too), Sign in.
  '/providers/login': `<header>${jsButton('Sign up', 'signup')}</header>
<form action="/done">${FIELDS}
<button name="via" value="google">Sign in with Google</button>
<a href="/forgot">Forgot password?</a>
<button type="submit" name="via" value="signin">Sign in</button></form>`,
  // The same name twice: a header button "Sign in" (opens nothing useful) and the form's "Sign in".
  '/header/login': `<header>${jsButton('Sign in', 'header')}</header>
<form action="/done">${FIELDS}<button type="submit" name="via" value="form">Sign in</button></form>`,
  // Sign-up form first (a password field of its own, labelled apart so the fills are not ambiguous), then the
  // log-in form; the run fills the log-in form's password. Both submits are plain ("Get started", "Continue"): only
  // which password was filled tells them apart.
  '/two-forms/login': `<h2>New here?</h2><form action="/done"><label for="new-email">Your address</label><input id="new-email" type="email">
<label for="new-password">Pick a passphrase</label><input id="new-password" type="password">
<button type="submit" name="via" value="signup">Get started</button></form>
<h2>Welcome back</h2><form action="/done">${FIELDS}<button type="submit" name="via" value="login">Continue</button></form>`,
  // Names that are not the element's text: a decorative arrow hidden from assistive technology, an <input>'s value.
  '/arrow/login': `<form action="/done">${FIELDS}<button type="submit" name="via" value="arrow">Sign in <span aria-hidden="true">→</span></button></form>`,
  '/input/login': `<form action="/done">${FIELDS}<input type="submit" name="via" value="Log on"></form>`,
  // Two equally good submits in one form; and two forms with a password and a "Sign in" each (only one is filled,
  // but no locator tells its button from the other's, so a replay could not find it again).
  '/twice/login': `<form action="/done">${FIELDS}<button type="submit" name="via" value="first">Sign in</button><button type="submit" name="via" value="second">Sign in</button></form>`,
  '/mirror/login': `<form action="/done"><label for="other-password">Other secret</label><input id="other-password" type="password"><button type="submit" name="via" value="other">Sign in</button></form>
<form action="/done">${FIELDS}<button type="submit" name="via" value="mine">Sign in</button></form>`,
  // Nothing that submits the sign-in: Forgot password and Sign up only.
  '/no-submit/login': `<form action="/done">${FIELDS}${jsButton('Forgot password?', 'forgot')}</form>${jsButton('Sign up', 'signup')}`,
};

async function startVariants(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://variants.invalid');
    const body = url.pathname === '/done' ? `<h1>Done via ${url.searchParams.get('via') ?? 'nothing'}</h1>` : PAGES[url.pathname];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>Variant</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The planner's steps for a task, with the test values it may name. */
function planned(task: string, testValueNames: string[]): PlanStep[] {
  const result = planTask({ text: task, testValueNames, evidenceCriteria: [], answerTo: () => undefined });
  if (result.kind !== 'plan') throw new Error(`no plan for ${task}: ${JSON.stringify(result)}`);
  return result.plan.steps;
}

describe('the sign-in submit, found by purpose in Chromium', () => {
  let browsers: BrowserPool;
  let session: BrowserSession;
  let demo: DemoApp;
  let variants: { url: string; close(): Promise<void> };
  let baseUrl: string;
  const secrets: Record<string, string> = { demoPassword: DEFAULT_ACCOUNT.password };

  beforeAll(async () => {
    [demo, variants] = await Promise.all([startDemoApp(), startVariants()]);
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
    await Promise.all([demo.close(), variants.close()]);
  });
  const open = async (url: string) => {
    baseUrl = url;
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(url, []));
  };
  beforeEach(() => demo.reset());

  const context = (overrides: Partial<StepContext> = {}): StepContext => ({
    baseUrl,
    timeoutMs: 3_000,
    testValue: (name) => secrets[name],
    allowlist: session.allowlist,
    ...overrides,
  });
  async function runAll(steps: readonly PlanStep[], locators: (ResolvedLocator | undefined)[] = []): Promise<StepResult[]> {
    const results: StepResult[] = [];
    for (const [index, step] of steps.entries()) {
      const result = await runStep(session.page, step, context({ locator: locators[index] }));
      results.push(result);
      if (result.status === 'failed') break;
    }
    return results;
  }
  const heading = () => session.page.getByRole('heading', { level: 1 }).innerText();

  it('signs in to the demo shop with "log in as … / …" although its button says "Sign in", and replays the locator', async () => {
    await open(demo.url);
    const steps = planned(`log in as ${DEFAULT_ACCOUNT.email} / demoPassword`, ['demoPassword']);
    expect(steps.at(-1)).toMatchObject({ action: 'click', target: { name: 'Log in', purpose: 'signIn' } });
    const results = await runAll(steps);
    expect(results.map((result) => result.status)).toEqual(steps.map(() => 'passed'));
    const signInButton: ResolvedLocator = { strategy: 'role', role: 'button', name: 'Sign in', exact: true };
    expect(results.at(-1)!.locator).toEqual(signInButton);
    expect(session.page.url()).toContain('/products');

    // The compiled check's replay uses that locator as is.
    await open(demo.url);
    const replay = await runAll(steps, results.map((result) => result.locator));
    expect(replay.map((result) => result.status)).toEqual(steps.map(() => 'passed'));
    expect(session.page.url()).toContain('/products');
  });

  it('takes "Sign in" on a page with Sign up, Sign in with Google and Forgot password', async () => {
    await open(variants.url);
    const results = await runAll(planned('go to /providers/login, then sign in as ada@example.test / "hunter2"', []));
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(results.at(-1)!.locator).toEqual({ strategy: 'role', role: 'button', name: 'Sign in', exact: true });
    expect(await heading()).toBe('Done via signin');
  });

  it('looks inside the password form when the name alone also matches a header button, and replays that', async () => {
    await open(variants.url);
    const steps = planned('go to /header/login, then log in as ada@example.test / "hunter2"', []);
    const results = await runAll(steps);
    expect(results.map((result) => result.status)).toEqual(steps.map(() => 'passed'));
    const scoped: ResolvedLocator = { strategy: 'role', role: 'button', name: 'Sign in', exact: true, within: 'passwordForm' };
    expect(results.at(-1)!.locator).toEqual(scoped);
    expect(await heading()).toBe('Done via form');

    await open(variants.url);
    const replay = await runAll(steps, results.map((result) => result.locator));
    expect(replay.map((result) => result.status)).toEqual(steps.map(() => 'passed'));
    expect(await heading()).toBe('Done via form');
  });

  it('submits the form whose password the run filled: "Continue" of the log-in form, not "Get started" of the sign-up form', async () => {
    await open(variants.url);
    const results = await runAll(planned('go to /two-forms/login, then log in as ada@example.test / "hunter2"', []));
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(results.at(-1)!.locator).toEqual({ strategy: 'role', role: 'button', name: 'Continue', exact: true });
    expect(await heading()).toBe('Done via login');
  });

  it('records the name getByRole matches: not the text of an aria-hidden arrow, the value of an <input type=submit>', async () => {
    await open(variants.url);
    const arrow = await runAll(planned('go to /arrow/login, then log in as ada@example.test / "hunter2"', []));
    expect(arrow.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(arrow.at(-1)!.locator).toEqual({ strategy: 'role', role: 'button', name: 'Sign in', exact: true });
    expect(await heading()).toBe('Done via arrow');

    const input = await runAll(planned('go to /input/login, then sign in as ada@example.test / "hunter2"', []));
    expect(input.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(input.at(-1)!.locator).toEqual({ strategy: 'role', role: 'button', name: 'Log on', exact: true });
    expect(await heading()).toBe('Done via Log on');
  });

  it('refuses to pick between two equal submits, or one that no locator could find again, as step_unresolvable', async () => {
    await open(variants.url);
    for (const path of ['/twice/login', '/mirror/login']) {
      const results = await runAll(planned(`go to ${path}, then log in as ada@example.test / "hunter2"`, []));
      expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'failed']);
      expect(results.at(-1)).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringMatching(/^2 elements match "Log in"/) });
      expect(session.page.url()).toBe(`${variants.url}${path}`);
    }
  });

  it('fails as step_unresolvable on a page with no submit control, clicking nothing', async () => {
    await open(variants.url);
    const results = await runAll(planned('go to /no-submit/login, then log in as ada@example.test / "hunter2"', []));
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'failed']);
    expect(results.at(-1)).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringContaining('Nothing on the page matches "Log in"') });
    expect(session.page.url()).toBe(`${variants.url}/no-submit/login`);
  });
});
