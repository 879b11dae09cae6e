import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright';
import { createAccessibilityAudit, type AccessibilityAudit } from '../../../src/browser/accessibility.js';
import { verdictOf } from '../../../src/core/findings.js';
import { DEFAULT_ACCOUNT } from '../../fixtures/demo-app/index.js';
import { A11Y_TITLES, useDemoBrowser } from '../../support/demo-browser.js';

/** Tests that audit several pages: axe takes ~0.7 s a page, several times that on a busy 2-core machine. */
const AUDITS_TIMEOUT_MS = 60_000;

describe('accessibility audit with axe on the demo shop', () => {
  const { demo, browser } = useDemoBrowser();
  let context: BrowserContext;
  let page: Page;
  let audit: AccessibilityAudit;

  beforeEach(async () => {
    demo().reset();
    context = await browser().newContext();
    page = await context.newPage();
    audit = createAccessibilityAudit();
  });
  afterEach(async () => {
    await context.close();
  });

  /**
   * The page leaves for /pricing as soon as axe's `method` starts analysing it, and that call never ends on its own
   * (axe's `run` in legacy mode, `runPartial` otherwise). Patched on read: axe fills in its API after assigning
   * window.axe. (Page scripts are strings here: the test project has no DOM typings.)
   */
  const leaveWhenAxeCalls = (method: 'run' | 'runPartial') =>
    page.evaluate(`{
      let injected;
      Object.defineProperty(window, 'axe', {
        configurable: true,
        get: () => {
          if (injected) {
            injected.${method} = () => {
              window.location.assign('/pricing');
              return new Promise(() => undefined);
            };
          }
          return injected;
        },
        set: (axe) => {
          injected = axe;
        },
      });
    }`);

  const open = async (path: string) => {
    await page.goto(`${demo().url}${path}`);
  };

  it('reports the image without alt, the unlabelled field and the faint text on /a11y, as warnings', async () => {
    await open('/a11y');
    const findings = await audit.audit(page, 2);
    expect(audit.lastError).toBeUndefined();
    expect(findings.map((finding) => finding.title)).toEqual(A11Y_TITLES);
    expect(findings.every((finding) => finding.kind === 'accessibility' && finding.severity === 'warning' && finding.stepIndex === 2)).toBe(true);
    expect(verdictOf(findings)).toBe('passed');
    expect(findings[0].detail).toContain('axe rule image-alt (critical)');
    expect(findings[0].detail).toContain('https://dequeuniversity.com/rules/axe/4.14/image-alt');
    expect(findings[0].detail).toContain('<img src="/static/logo.svg" width="64" height="64">');
    expect(findings[1].detail).toContain('<input type="text" name="nickname">');
    expect(findings[2].detail).toContain('contrast of 1.67');
    expect(audit.auditedPages()).toEqual([`${demo().url}/a11y`]);
  });

  it('finds nothing on the pages meant to be clean, signed out and signed in', async () => {
    for (const path of ['/', '/pricing', '/login']) {
      await open(path);
      expect({ path, findings: await audit.auditNewPage(page, null), error: audit.lastError }).toEqual({ path, findings: [], error: undefined });
    }
    await page.getByLabel('Email').fill(DEFAULT_ACCOUNT.email);
    await page.getByLabel('Password').fill(DEFAULT_ACCOUNT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/products');
    expect({ path: '/products', findings: await audit.auditNewPage(page, 3), error: audit.lastError }).toEqual({ path: '/products', findings: [], error: undefined });
    await page.getByRole('button', { name: 'Add Desk Lamp to cart' }).click();
    await page.waitForURL('**/products?added=desk-lamp');
    for (const path of ['/cart', '/checkout']) {
      await open(path);
      expect({ path, findings: await audit.auditNewPage(page, 4), error: audit.lastError }).toEqual({ path, findings: [], error: undefined });
    }
    expect(audit.auditedPages()).toEqual(['/', '/pricing', '/login', '/products', '/cart', '/checkout'].map((path) => `${demo().url}${path}`));
  }, AUDITS_TIMEOUT_MS);

  it('makes one finding of a rule broken by several elements of a page, with their count', async () => {
    await open('/a11y');
    await page.evaluate(`for (const name of ['city', 'zip']) {
      const field = document.createElement('input');
      field.name = name;
      document.querySelector('form').append(field);
    }`);
    const labels = (await audit.audit(page, null)).filter((finding) => finding.title.includes('labels'));
    expect(labels.map((finding) => finding.title)).toEqual(['Accessibility (critical): Form elements must have labels on /a11y (3 elements)']);
    expect(labels[0].detail).toContain('3 elements on /a11y:');
    for (const html of ['<input type="text" name="nickname">', '<input name="city">', '<input name="zip">']) expect(labels[0].detail).toContain(html);
  });

  it('reports nothing new when the same page is audited again, and only what is new when it changed', async () => {
    await open('/a11y');
    expect(await audit.audit(page, 0)).toHaveLength(3);
    expect(await audit.audit(page, 1)).toEqual([]);
    await open('/a11y?nickname=again');
    expect(await audit.audit(page, 2)).toEqual([]);

    await page.evaluate(`{
      const field = document.createElement('input');
      field.id = 'extra';
      document.querySelector('form').append(field);
    }`);
    // Already audited: auditNewPage does not look again, audit does and reports the new field alone.
    expect(await audit.auditNewPage(page, 3)).toEqual([]);
    const again = await audit.audit(page, 4);
    expect(again.map((finding) => finding.title)).toEqual(['Accessibility (critical): Form elements must have labels on /a11y']);
    expect(again[0].detail).toContain('1 element on /a11y:\n- #extra');
    expect(audit.auditedPages()).toEqual([`${demo().url}/a11y`]);
  }, AUDITS_TIMEOUT_MS);

  it('finds the same problems in legacy mode (no cross-origin frames)', async () => {
    const legacy = createAccessibilityAudit({ crossOriginFrames: false });
    await open('/a11y');
    expect((await legacy.audit(page, null)).map((finding) => finding.title)).toEqual(A11Y_TITLES);
    expect(legacy.lastError).toBeUndefined();
  });

  it('in legacy mode runs only the rules that can report serious or critical, and reports what a full axe run reports at those', async () => {
    // Beside the shop's pages, one with problems of every impact: an empty heading (a minor rule whose checks can be
    // serious), headings out of order and content outside landmarks (moderate), a link without a name (serious).
    const mixed =
      '<!doctype html><html lang="en"><head><title>Mixed</title></head><body><div><h1>Mixed</h1><h4>Skipped</h4><h2></h2>' +
      '<a href="/pricing"></a><p>Outside any landmark</p></div></body></html>';
    await page.route(`${demo().url}/mixed`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: mixed }));
    let belowSerious = 0;
    for (const path of ['/', '/login', '/pricing', '/a11y', '/mixed']) {
      await open(path);
      const full = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
      belowSerious += full.violations.filter((violation) => violation.impact === 'minor' || violation.impact === 'moderate').length;
      const expected = full.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `Accessibility (${violation.impact}): ${violation.help} on ${path}`);
      const legacy = createAccessibilityAudit({ crossOriginFrames: false });
      const titles = (await legacy.audit(page, null)).map((finding) => finding.title);
      expect(legacy.lastError).toBeUndefined();
      expect(titles.sort()).toEqual(expected.sort());
    }
    // Otherwise the comparison would not tell a filtered run from a full one.
    expect(belowSerious).toBeGreaterThan(0);

    // The rules the audit asked for: patched on read, as leaveWhenAxeCalls does.
    await page.evaluate(`{
      let injected;
      Object.defineProperty(window, 'axe', {
        configurable: true,
        get: () => {
          if (injected && !injected.recorded) {
            const run = injected.run;
            injected.recorded = true;
            injected.run = (context, options) => {
              window.askedFor = options.runOnly;
              return run.call(injected, context, options);
            };
          }
          return injected;
        },
        set: (axe) => {
          injected = axe;
        },
      });
    }`);
    await createAccessibilityAudit({ crossOriginFrames: false }).audit(page, null);
    const askedFor = (await page.evaluate('window.askedFor')) as { type: string; values: string[] };
    expect(askedFor.type).toBe('rule');
    expect(askedFor.values).toEqual(expect.arrayContaining(['image-alt', 'label', 'color-contrast', 'link-name', 'empty-heading']));
    for (const moderate of ['region', 'heading-order', 'landmark-one-main', 'page-has-heading-one']) expect(askedFor.values).not.toContain(moderate);
  });

  it('in legacy mode (one evaluate per frame) audits same-origin frames and pages whose policy forbids scripts', async () => {
    const legacy = createAccessibilityAudit({ crossOriginFrames: false });
    const strict = { 'content-security-policy': "default-src 'none'; frame-src 'self'; script-src 'none'; require-trusted-types-for 'script'" };
    const html = (body: string) => `<!doctype html><html lang="en"><head><title>Framed</title></head><body><main><h1>Framed</h1>${body}</main></body></html>`;
    await page.route(`${demo().url}/framed`, (route) => route.fulfill({ status: 200, contentType: 'text/html', headers: strict, body: html('<iframe title="Inner" src="/framed/inner"></iframe>') }));
    await page.route(`${demo().url}/framed/inner`, (route) => route.fulfill({ status: 200, contentType: 'text/html', headers: strict, body: html('<img src="data:,">') }));
    await open('/framed');
    await page.frameLocator('iframe').locator('img').waitFor({ state: 'attached' });
    const findings = await legacy.audit(page, 1);
    expect(legacy.lastError).toBeUndefined();
    expect(findings.map((finding) => finding.title)).toEqual(['Accessibility (critical): Images must have alternative text on /framed']);
    expect(findings[0]!.detail).toContain('iframe >> img');
  });

  it('in legacy mode returns nothing and says why when the page navigates away mid-audit', async () => {
    const legacy = createAccessibilityAudit({ crossOriginFrames: false });
    await open('/a11y');
    await leaveWhenAxeCalls('run');
    expect(await legacy.audit(page, 5)).toEqual([]);
    expect(legacy.lastError).toMatchObject({ kind: 'operational', code: 'accessibility.audit_failed', details: { path: '/a11y' } });
    expect(legacy.auditedPages()).toEqual([]);
    await page.waitForURL('**/pricing');
    expect(await legacy.auditNewPage(page, 6)).toEqual([]);
    expect([legacy.lastError, legacy.auditedPages()]).toEqual([undefined, [`${demo().url}/pricing`]]);
  });

  it('fails the run with the operator-chosen severity', async () => {
    const strict = createAccessibilityAudit({ severity: 'error' });
    await open('/a11y');
    const findings = await strict.audit(page, null);
    expect(findings.map((finding) => finding.severity)).toEqual(['error', 'error', 'error']);
    expect(verdictOf(findings)).toBe('failed');
  });

  it('audits a page whose content security policy forbids scripts', async () => {
    await page.route(`${demo().url}/strict`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        headers: { 'content-security-policy': "default-src 'none'; script-src 'none'; require-trusted-types-for 'script'" },
        body: '<!doctype html><html lang="en"><head><title>Strict</title></head><body><main><h1>Strict</h1><img src="data:,"></main></body></html>',
      }),
    );
    await open('/strict');
    expect((await audit.audit(page, null)).map((finding) => finding.title)).toEqual(['Accessibility (critical): Images must have alternative text on /strict']);
    expect(audit.lastError).toBeUndefined();
  });

  it('returns nothing and says why when the page navigates away mid-audit, then audits the next page', async () => {
    await open('/a11y');
    await leaveWhenAxeCalls('runPartial');
    expect(await audit.audit(page, 5)).toEqual([]);
    expect(audit.lastError).toMatchObject({ kind: 'operational', code: 'accessibility.audit_failed', details: { path: '/a11y' } });
    expect(audit.lastError?.message).toMatch(/^The accessibility audit of \/a11y could not run \(.+\), so that page was not checked/);
    expect(audit.auditedPages()).toEqual([]);

    await page.waitForURL('**/pricing');
    expect(await audit.auditNewPage(page, 6)).toEqual([]);
    expect(audit.lastError).toBeUndefined();
    // /a11y was never audited, so the next visit is.
    await open('/a11y');
    expect(await audit.auditNewPage(page, 7)).toHaveLength(3);
    expect(audit.auditedPages()).toEqual([`${demo().url}/pricing`, `${demo().url}/a11y`]);
  }, AUDITS_TIMEOUT_MS);

  it('gives up an audit that takes too long, and does not try that page again', async () => {
    const hurried = createAccessibilityAudit({ timeoutMs: 1 });
    await open('/a11y');
    const started = performance.now();
    expect(await hurried.audit(page, null)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
    expect(hurried.lastError).toMatchObject({ code: 'accessibility.audit_timeout', details: { path: '/a11y', timeoutMs: 1 } });
    expect(hurried.auditedPages()).toEqual([`${demo().url}/a11y`]);
    expect(await hurried.auditNewPage(page, null)).toEqual([]);
    expect(hurried.lastError).toBeUndefined();
  });

  it('never throws, even on a closed page, and skips documents that are not web pages', async () => {
    expect(await audit.audit(page, null)).toEqual([]); // about:blank
    expect(audit.lastError).toBeUndefined();

    await open('/a11y');
    await page.close();
    expect(await audit.audit(page, null)).toEqual([]);
    expect(audit.lastError).toMatchObject({ code: 'accessibility.audit_failed', details: { path: '/a11y' } });
    expect(audit.auditedPages()).toEqual([]);
  });
});
