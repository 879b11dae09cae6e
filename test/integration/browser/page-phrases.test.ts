/**
 * In real Chromium: a text that shows only briefly after a click is seen by the watch armed before it; a text in
 * mixed case must be the page's own text letter for letter (a stylesheet's capitals still pass); a select list's value
 * is read as the option a person sees; an element placed above another is found by its place.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appearingTextsAfter } from '../../../src/browser/appearing-texts.js';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { stepSchema, type PlanStep } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startDialogSite, type DialogSite } from '../../support/dialog-site.js';

const PAGE = `<button onclick="setTimeout(()=>{const s=document.createElement('p');s.textContent='Working...';document.body.append(s);setTimeout(()=>s.remove(),250)},50)">Go</button>
<p id="done" style="text-transform:uppercase">Order placed</p><p>Total: Blue Mug</p>
<select><option value="s">Small</option><option value="l">Large</option></select>`;

describe('phrases of practice sites, on the page', () => {
  let site: DialogSite;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    site = await startDialogSite();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    session = await browsers.openSession(createHostAllowlist(site.url, []));
    await session.page.goto(site.url, { waitUntil: 'load' });
    await session.page.setContent(PAGE);
  });
  afterAll(async () => {
    await session?.close();
    await browsers?.close();
    await site?.close();
  });

  const step = (raw: Record<string, unknown>): PlanStep => stepSchema.parse({ description: 'step', ...raw });
  const run = (planned: PlanStep, revealsTexts?: string[]): Promise<StepResult> =>
    runStep(session.page, planned, { baseUrl: site.url, timeoutMs: 800, testValue: () => undefined, allowlist: session.allowlist, ...(revealsTexts === undefined ? {} : { revealsTexts }) });

  it('sees a text that showed only briefly after the click, and not one that never showed', async () => {
    const click = step({ action: 'click', target: { by: 'role', role: 'button', name: 'Go' } });
    const appears = step({ action: 'expectState', target: { by: 'text', name: 'Working...', exact: true }, state: 'visible' });
    const never = step({ action: 'expectState', target: { by: 'text', name: 'Finished', exact: true }, state: 'visible' });
    expect(appearingTextsAfter([click, appears, never], 0)).toEqual(['Working...', 'Finished']);
    expect((await run(click, ['Working...', 'Finished'])).status).toBe('passed');
    await session.page.waitForTimeout(600);
    expect(await run(appears)).toMatchObject({ status: 'passed', locator: { strategy: 'text', name: 'Working...' } });
    expect((await run(never)).status).toBe('failed');
  });

  it('takes a mixed-case text only with its case, and a stylesheet\'s capitals as the page\'s own text', async () => {
    expect((await run(step({ action: 'expectText', text: 'Order placed' }))).status).toBe('passed');
    expect((await run(step({ action: 'expectText', text: 'Total: BLUE MUG' }))).status).toBe('failed');
    expect((await run(step({ action: 'expectText', text: 'total: blue mug' }))).status).toBe('passed');
  });

  it('finds the message above the heading by its place, kept as a CSS locator, and nothing when there is none', async () => {
    await session.page.setContent('<div id="note" class="flash">Saved <a href="#">x</a></div><h3>Settings</h3><p>Messages say Saved or Failed.</p>');
    const above = { by: 'description', name: 'the message above the heading' };
    expect(await run(step({ action: 'expectText', text: 'Saved', orText: ['Failed'], target: above }))).toMatchObject({ status: 'passed', locator: { strategy: 'css', name: '#note' } });
    await session.page.setContent('<h3>Settings</h3><p>Messages say Saved or Failed.</p>');
    expect(await run(step({ action: 'expectText', text: 'Saved', orText: ['Failed'], target: above }))).toMatchObject({ status: 'failed', kind: 'step_unresolvable' });
    await session.page.setContent(PAGE);
  });

  it('reads a select list\'s value as the option shown as well as its value', async () => {
    const list = { by: 'role', role: 'combobox', name: '' };
    expect((await run(step({ action: 'select', target: list, value: { kind: 'literal', text: 'Large' } }))).status).toBe('passed');
    expect((await run(step({ action: 'expectValue', target: list, text: 'Large' }))).status).toBe('passed');
    expect((await run(step({ action: 'expectValue', target: list, text: 'l' }))).status).toBe('passed');
    expect(await run(step({ action: 'expectValue', target: list, text: 'Small' }))).toMatchObject({ status: 'failed', comparison: { expected: 'Small', actual: ['Large'] } });
  });
});
