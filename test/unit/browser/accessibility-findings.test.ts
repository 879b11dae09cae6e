import { describe, expect, it } from '@jest/globals';
import { accessibilityFindings, findingKeys, targetText, type AuditedPage, type AxeViolation } from '../../../src/browser/accessibility-findings.js';
import { auditedPageOf } from '../../../src/browser/accessibility.js';
import { FINDING_DETAIL_MAX, FINDING_TITLE_MAX, verdictOf } from '../../../src/core/findings.js';

/** What axe 4.14 reports on the demo shop's /a11y page (trimmed), plus a moderate rule that must be left out. */
const imageAlt: AxeViolation = {
  id: 'image-alt',
  impact: 'critical',
  help: 'Images must have alternative text',
  helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt?application=playwright',
  nodes: [{ target: ['img'], html: '<img src="/static/logo.svg" width="64" height="64">', impact: 'critical', failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute' }],
};
const contrast: AxeViolation = {
  id: 'color-contrast',
  impact: 'serious',
  help: 'Elements must meet minimum color contrast ratio thresholds',
  helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast?application=playwright',
  nodes: [{ target: ['p:nth-child(4)'], html: '<p style="color:#c8c8c8">This sentence is very hard to read.</p>', impact: 'serious', failureSummary: 'Fix any of the following:\n  Element has insufficient color contrast of 1.67' }],
};
const headingOrder: AxeViolation = {
  id: 'heading-order',
  impact: 'moderate',
  help: 'Heading levels should only increase by one',
  helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/heading-order?application=playwright',
  nodes: [{ target: ['h4'], html: '<h4>Details</h4>', impact: 'moderate' }],
};
const A11Y: AuditedPage = { key: 'http://shop.example/a11y', path: '/a11y' };
const CART: AuditedPage = { key: 'http://shop.example/cart', path: '/cart' };
const OPTIONS = { severity: 'warning', nodesListed: 3 } as const;

function labelViolation(count: number): AxeViolation {
  return {
    id: 'label',
    impact: 'critical',
    help: 'Form elements must have labels',
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/label?application=playwright',
    nodes: Array.from({ length: count }, (_, index) => ({ target: [`#field-${index + 1}`], html: `<input id="field-${index + 1}">`, impact: 'critical' as const })),
  };
}

describe('accessibility findings from axe results', () => {
  it('reports serious and critical rules, critical first, as warnings that do not fail the run', () => {
    const { findings } = accessibilityFindings([contrast, headingOrder, imageAlt], A11Y, 4, new Set(), OPTIONS);
    expect(findings.map((finding) => [finding.kind, finding.severity, finding.stepIndex, finding.title])).toEqual([
      ['accessibility', 'warning', 4, 'Accessibility (critical): Images must have alternative text on /a11y'],
      ['accessibility', 'warning', 4, 'Accessibility (serious): Elements must meet minimum color contrast ratio thresholds on /a11y'],
    ]);
    expect(findings[0].detail).toBe(
      [
        'axe rule image-alt (critical): Images must have alternative text',
        imageAlt.helpUrl,
        '1 element on /a11y:',
        '- img',
        '  <img src="/static/logo.svg" width="64" height="64">',
        'Fix any of the following:\n  Element does not have an alt attribute',
      ].join('\n'),
    );
    expect(verdictOf(findings)).toBe('passed');
  });

  it('fails the run when the operator asks for accessibility errors', () => {
    const { findings } = accessibilityFindings([imageAlt], A11Y, null, new Set(), { ...OPTIONS, severity: 'error' });
    expect(findings.map((finding) => finding.severity)).toEqual(['error']);
    expect(verdictOf(findings)).toBe('failed');
  });

  it('makes one finding of a rule broken on several elements, listing a few and counting all', () => {
    const { findings, reportedKeys } = accessibilityFindings([labelViolation(5)], A11Y, 1, new Set(), OPTIONS);
    expect(findings).toHaveLength(1);
    expect(findings[0].title).toBe('Accessibility (critical): Form elements must have labels on /a11y (5 elements)');
    expect(findings[0].detail).toContain('5 elements on /a11y:\n- #field-1\n  <input id="field-1">\n- #field-2');
    expect(findings[0].detail).toContain('- #field-3\n  <input id="field-3">\n… and 2 more');
    expect(findings[0].detail).not.toContain('#field-4');
    expect(reportedKeys).toHaveLength(10); // a selector and a markup key each
  });

  it('reports each rule on each element of each page once per run', () => {
    const reported = new Set<string>();
    const first = accessibilityFindings([imageAlt, labelViolation(2)], A11Y, 0, reported, OPTIONS);
    first.reportedKeys.forEach((key) => reported.add(key));
    expect(first.findings).toHaveLength(2);

    // The same page again, say after a reload: nothing new.
    expect(accessibilityFindings([imageAlt, labelViolation(2)], A11Y, 3, reported, OPTIONS)).toEqual({ findings: [], reportedKeys: [] });

    // A third unlabelled field appears: only it is reported.
    const grown = accessibilityFindings([imageAlt, labelViolation(3)], A11Y, 5, reported, OPTIONS);
    expect(grown.findings.map((finding) => finding.title)).toEqual(['Accessibility (critical): Form elements must have labels on /a11y']);
    expect(grown.findings[0].detail).toContain('1 element on /a11y:\n- #field-3');
    expect(grown.findings[0].stepIndex).toBe(5);

    // The same element selector on another page is another problem.
    const elsewhere = accessibilityFindings([imageAlt], CART, 6, reported, OPTIONS);
    expect(elsewhere.findings.map((finding) => finding.title)).toEqual(['Accessibility (critical): Images must have alternative text on /cart']);
  });

  it('knows an element again when axe gives it a longer selector because the page grew', () => {
    const reported = new Set(accessibilityFindings([labelViolation(1)], A11Y, 0, new Set(), OPTIONS).reportedKeys);
    const grown: AxeViolation = {
      ...labelViolation(1),
      nodes: [
        { target: ['#field-1:nth-child(1)'], html: '<input id="field-1">', impact: 'critical' },
        { target: ['input:nth-child(2)'], html: '<input name="extra">', impact: 'critical' },
      ],
    };
    const { findings } = accessibilityFindings([grown], A11Y, 1, reported, OPTIONS);
    expect(findings.map((finding) => finding.title)).toEqual(['Accessibility (critical): Form elements must have labels on /a11y']);
    expect(findings[0].detail).toContain('1 element on /a11y:\n- input:nth-child(2)\n  <input name="extra">');
  });

  it('counts identical elements of one page each, and does not report them again', () => {
    const identical: AxeViolation = {
      ...labelViolation(0),
      nodes: [1, 2, 3].map((index) => ({ target: [`input:nth-child(${index})`], html: '<input type="text">', impact: 'critical' as const })),
    };
    const first = accessibilityFindings([identical], A11Y, 0, new Set(), OPTIONS);
    expect(first.findings.map((finding) => finding.title)).toEqual(['Accessibility (critical): Form elements must have labels on /a11y (3 elements)']);
    expect(accessibilityFindings([identical], A11Y, 1, new Set(first.reportedKeys), OPTIONS).findings).toEqual([]);
  });

  it('judges each element by its own impact', () => {
    const mixed: AxeViolation = {
      ...contrast,
      impact: 'serious',
      nodes: [
        { target: ['.faint'], html: '<p class="faint">a</p>', impact: 'moderate' },
        { target: ['.fainter'], html: '<p class="fainter">b</p>', impact: 'serious' },
      ],
    };
    const { findings, reportedKeys } = accessibilityFindings([mixed], A11Y, null, new Set(), OPTIONS);
    expect(findings.map((finding) => finding.title)).toEqual(['Accessibility (serious): Elements must meet minimum color contrast ratio thresholds on /a11y']);
    expect(findings[0].detail).not.toContain('- .faint\n');
    const keys = findingKeys(A11Y, 'color-contrast', mixed.nodes[1]);
    expect(reportedKeys).toEqual([keys.target, keys.html]);

    const onlyModerate = { ...mixed, nodes: [mixed.nodes[0]] };
    expect(accessibilityFindings([onlyModerate, headingOrder], A11Y, null, new Set(), OPTIONS).findings).toEqual([]);
  });

  it('keeps titles and details bounded however large the page', () => {
    const huge: AxeViolation = {
      ...imageAlt,
      help: 'h'.repeat(1_000),
      nodes: Array.from({ length: 50 }, (_, index) => ({ target: [`#i${index}`.padEnd(500, 'x')], html: `<img data-x="${'y'.repeat(10_000)}">`, impact: 'critical', failureSummary: 'z'.repeat(10_000) })),
    };
    const [finding] = accessibilityFindings([huge], A11Y, null, new Set(), { severity: 'warning', nodesListed: 50 }).findings;
    expect(finding.title.length).toBeLessThanOrEqual(FINDING_TITLE_MAX);
    expect(finding.detail.length).toBeLessThanOrEqual(FINDING_DETAIL_MAX);
    expect(finding.detail).toMatch(/^axe rule image-alt \(critical\)/);
  });

  it('writes targets inside frames and shadow roots in one line', () => {
    expect(targetText(['img'])).toBe('img');
    expect(targetText(['iframe#pay', 'input[name="card"]'])).toBe('iframe#pay >> input[name="card"]');
    expect(targetText(['my-widget', ['my-widget', 'img']])).toBe('my-widget >> my-widget >>> img');
  });
});

describe('which page a URL is, for auditing', () => {
  it('is the origin and path, without query or fragment', () => {
    expect(auditedPageOf('http://127.0.0.1:4000/products?added=desk-lamp#top')).toEqual({ key: 'http://127.0.0.1:4000/products', path: '/products' });
    expect(auditedPageOf('https://shop.example/')).toEqual({ key: 'https://shop.example/', path: '/' });
  });

  it('is nothing for documents that are not web pages', () => {
    expect(auditedPageOf('about:blank')).toBeUndefined();
    expect(auditedPageOf('chrome-error://chromewebdata/')).toBeUndefined();
    expect(auditedPageOf('not a url')).toBeUndefined();
  });
});
