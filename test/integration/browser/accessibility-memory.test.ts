import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright';
import { createAccessibilityAudit, type AccessibilityAudit } from '../../../src/browser/accessibility.js';
import { createAccessibilityMemory, type AccessibilityMemory } from '../../../src/browser/accessibility-memory.js';
import type { FindingDraft } from '../../../src/core/findings.js';
import { A11Y_TITLES, useDemoBrowser } from '../../support/demo-browser.js';

/** Tests that audit a page in several runs: axe takes ~0.7 s a page, several times that on a busy 2-core machine. */
const AUDITS_TIMEOUT_MS = 60_000;

/**
 * Counts, in each document, the times axe ran (`window.axeRuns`); with `window.changeOnAxeRun` set, axe's run first
 * adds a paragraph to the page, as a page that changes during its audit does. Patched on read: axe fills in its API
 * after assigning window.axe. (Page scripts are strings here: the test project has no DOM typings.)
 */
const COUNT_AXE_RUNS = `{
  let injected;
  window.axeRuns = 0;
  Object.defineProperty(window, 'axe', {
    configurable: true,
    get: () => {
      if (injected && injected.run && !injected.counted) {
        const run = injected.run;
        injected.counted = true;
        injected.run = (context, options) => {
          window.axeRuns += 1;
          if (window.changeOnAxeRun) document.querySelector('main').append(Object.assign(document.createElement('p'), { textContent: 'Arrived late' }));
          return run.call(injected, context, options);
        };
      }
      return injected;
    },
    set: (axe) => {
      injected = axe;
    },
  });
}`;

interface RunOutcome {
  findings: FindingDraft[];
  /** How many times axe ran on the page. */
  axeRuns: number;
  reused: readonly string[];
  audited: readonly string[];
}

describe('accessibility audits remembered between runs of a check', () => {
  const { demo, browser } = useDemoBrowser();

  /**
   * One run as a replay makes it: a fresh context, a fresh audit in legacy mode with the process's memory under the
   * check version `scope`, one page opened (`prepare` changes it first) and audited as step `stepIndex`.
   */
  async function run(
    memory: AccessibilityMemory,
    path: string,
    { scope = 'check-1@1', stepIndex = 1, prepare }: { scope?: string; stepIndex?: number; prepare?: (page: Page) => Promise<unknown> } = {},
  ): Promise<RunOutcome> {
    const context = await browser().newContext();
    try {
      await context.addInitScript(COUNT_AXE_RUNS);
      const page = await context.newPage();
      await page.goto(`${demo().url}${path}`);
      await prepare?.(page);
      const audit: AccessibilityAudit = createAccessibilityAudit({ crossOriginFrames: false, memory: { store: memory, scope } });
      const findings = await audit.audit(page, stepIndex);
      expect(audit.lastError).toBeUndefined();
      return { findings, axeRuns: (await page.evaluate('window.axeRuns')) as number, reused: audit.reusedPages(), audited: audit.auditedPages() };
    } finally {
      await context.close();
    }
  }

  it('reuses what axe found on a page unchanged since its last audit, and reports the same findings with this run\'s step', async () => {
    const memory = createAccessibilityMemory();
    const first = await run(memory, '/a11y', { stepIndex: 1 });
    expect(first.findings.map((finding) => finding.title)).toEqual(A11Y_TITLES);
    expect([first.axeRuns, first.reused]).toEqual([1, []]);

    const second = await run(memory, '/a11y', { stepIndex: 4 });
    expect([second.axeRuns, second.reused, second.audited]).toEqual([0, [`${demo().url}/a11y`], [`${demo().url}/a11y`]]);
    expect(second.findings).toEqual(first.findings.map((finding) => ({ ...finding, stepIndex: 4 })));
    // A query the page does not show differently is the same page.
    expect((await run(memory, '/a11y?utm=mail')).axeRuns).toBe(0);
  }, AUDITS_TIMEOUT_MS);

  it('audits again a page whose markup, a field\'s value, or styles changed, and reports what it finds now', async () => {
    const memory = createAccessibilityMemory();
    expect((await run(memory, '/a11y')).axeRuns).toBe(1);

    const moreFields = await run(memory, '/a11y', {
      prepare: (page) => page.evaluate(`document.querySelector('form').append(Object.assign(document.createElement('input'), { name: 'city' }))`),
    });
    expect(moreFields.axeRuns).toBe(1);
    expect(moreFields.findings.map((finding) => finding.title)).toContain('Accessibility (critical): Form elements must have labels on /a11y (2 elements)');

    const typed = await run(memory, '/a11y', { prepare: (page) => page.locator('input[name="nickname"]').fill('Ada') });
    expect([typed.axeRuns, typed.findings.map((finding) => finding.title)]).toEqual([1, A11Y_TITLES]);

    // A rule added to the page's style sheet (its markup stays as it was) makes the faint sentence readable.
    const restyled = await run(memory, '/a11y', {
      prepare: (page) => page.evaluate(`document.styleSheets[0].insertRule('main p { color: #202124 !important }', document.styleSheets[0].cssRules.length)`),
    });
    expect([restyled.axeRuns, restyled.findings.map((finding) => finding.title)]).toEqual([1, A11Y_TITLES.slice(0, 2)]);
    // The latest audit is the one remembered: the same restyled page reuses it, the original page is audited again.
    const restyledAgain = await run(memory, '/a11y', {
      prepare: (page) => page.evaluate(`document.styleSheets[0].insertRule('main p { color: #202124 !important }', document.styleSheets[0].cssRules.length)`),
    });
    expect([restyledAgain.axeRuns, restyledAgain.findings.map((finding) => finding.title)]).toEqual([0, A11Y_TITLES.slice(0, 2)]);
    const original = await run(memory, '/a11y');
    expect([original.axeRuns, original.findings.map((finding) => finding.title)]).toEqual([1, A11Y_TITLES]);
  }, AUDITS_TIMEOUT_MS);

  it('keeps each check version\'s audits apart', async () => {
    const memory = createAccessibilityMemory();
    expect((await run(memory, '/a11y', { scope: 'check-1@1' })).axeRuns).toBe(1);
    const otherVersion = await run(memory, '/a11y', { scope: 'check-1@2' });
    expect([otherVersion.axeRuns, otherVersion.findings.map((finding) => finding.title)]).toEqual([1, A11Y_TITLES]);
    expect((await run(memory, '/a11y', { scope: 'check-1@1' })).axeRuns).toBe(0);
  }, AUDITS_TIMEOUT_MS);

  it('does not remember an audit during which the page changed', async () => {
    const memory = createAccessibilityMemory();
    const changing = await run(memory, '/a11y', { prepare: (page) => page.evaluate('window.changeOnAxeRun = true') });
    expect([changing.axeRuns, changing.findings.map((finding) => finding.title)]).toEqual([1, A11Y_TITLES]);
    // The same page as it was before that audit is audited again, and that audit is remembered.
    expect((await run(memory, '/a11y')).axeRuns).toBe(1);
    expect((await run(memory, '/a11y')).axeRuns).toBe(0);
  }, AUDITS_TIMEOUT_MS);

  it('always audits a page with frames: the digest covers the top document only', async () => {
    const memory = createAccessibilityMemory();
    const framed = (page: Page) =>
      page.setContent('<!doctype html><html lang="en"><head><title>Framed</title></head><body><main><h1>Framed</h1><iframe title="Inner" src="/a11y"></iframe></main></body></html>');
    for (let replay = 0; replay < 2; replay++) {
      const outcome = await run(memory, '/', { prepare: framed });
      expect([outcome.axeRuns, outcome.reused]).toEqual([1, []]);
      expect(outcome.findings.map((finding) => finding.title)).toContain('Accessibility (critical): Images must have alternative text on /');
    }
  }, AUDITS_TIMEOUT_MS);
});
