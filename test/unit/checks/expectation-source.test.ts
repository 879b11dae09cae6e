/**
 * The generated source of the expectations that fail with what the page shows: a heading's text among the page's
 * headings, the title, a field's value. Each is one Playwright assertion, so a failing replay of the file prints
 * Playwright's own expected/received diff. (Run against the demo shop in test/integration/browser/expectations.test.ts.)
 */
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema } from '../../../src/core/check.js';
import { PLAIN_CJS_OPTIONS, STRICT_ESM_OPTIONS, typeErrors } from './typecheck-source.js';

const CHECK = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Open the pricing page', url: '/pricing' } },
    { step: { action: 'expectText', description: 'Expect a heading to show "Pricing"', text: 'Pricing', role: 'heading' } },
    { step: { action: 'expectTitle', description: 'Expect the page title to contain "Pricing · Demo"', text: 'Pricing  · Demo' } },
    { step: { action: 'expectValue', description: 'Expect the "Coupon" field to hold "SAVE10"', target: { by: 'label', name: 'Coupon' }, text: 'SAVE10' }, locator: { strategy: 'label', name: 'Coupon', exact: false } },
    { step: { action: 'expectValue', description: 'Expect the "Email" field to be empty', target: { by: 'label', name: 'Email' }, text: '' }, locator: { strategy: 'label', name: 'Email', exact: true } },
  ],
  successCriteria: [],
});
const source = generatePlaywrightSource({ name: 'Expectations', check: CHECK, baseUrl: 'https://shop.example.test', testValueSecretRefs: {}, evidenceProbeRefs: {} });
const lines = source.split('\n').map((line) => line.trim());

describe('generated source of expectations about an element that is there', () => {
  it('checks a text among the page\'s elements of a role with one toContainText over all of them', () => {
    expect(lines).toContain('await expect(visible(page.getByRole("heading"))).toContainText(["Pricing"], { ignoreCase: true, useInnerText: true, timeout: STEP_TIMEOUT_MS });');
  });

  it('checks the title with toHaveTitle, matching as the runner does (case and white space runs ignored)', () => {
    expect(lines).toContain('await expect(page).toHaveTitle(textPattern("Pricing  · Demo"), { timeout: STEP_TIMEOUT_MS });');
    const helper = source.slice(source.indexOf('function textPattern'));
    // The helper as the generated file defines it, compiled to JavaScript and called here.
    const javascript = ts.transpile(helper.slice(0, helper.indexOf('\n}') + 2), { target: ts.ScriptTarget.ES2022 });
    const textPattern = new Function(`${javascript}; return textPattern;`)() as (text: string) => RegExp;
    expect(textPattern('Pricing  · Demo').test('PRICING · demo Shop')).toBe(true);
    expect(textPattern('Pricing  · Demo').test('Pricing Demo')).toBe(false);
    expect(textPattern('a.b (c)').test('A.B (C)')).toBe(true);
    expect(textPattern('a.b').test('axb')).toBe(false);
  });

  it('checks a field with toHaveValue, the empty value included', () => {
    expect(lines).toContain('await expect(visible(page.getByLabel("Coupon"))).toHaveValue("SAVE10", { timeout: STEP_TIMEOUT_MS });');
    expect(lines).toContain('await expect(visible(page.getByLabel("Email", { exact: true }))).toHaveValue("", { timeout: STEP_TIMEOUT_MS });');
  });

  it('type-checks in a strict ESM project and in a plain CommonJS one', () => {
    expect(typeErrors({ 'expectations.spec.ts': source }, STRICT_ESM_OPTIONS)).toEqual([]);
    expect(typeErrors({ 'expectations.spec.ts': source }, PLAIN_CJS_OPTIONS)).toEqual([]);
  });
});

describe('generated source of a text in mixed case', () => {
  it('checks the page\'s own text letter for letter as well, as the runner does (src/core/text-case.ts)', () => {
    const check = compiledCheckSchema.parse({
      steps: [
        { step: { action: 'expectText', description: 'Expect the page to show "Order placed: Blue Mug"', text: 'Order placed: Blue Mug' } },
        { step: { action: 'expectText', description: 'Expect the page to show "saved"', text: 'saved' } },
      ],
      successCriteria: [],
    });
    const generated = generatePlaywrightSource({ name: 'Case', check, baseUrl: 'https://shop.example.test', testValueSecretRefs: {}, evidenceProbeRefs: {} }).split('\n').map((line) => line.trim());
    expect(generated).toContain('await expect(page.locator(\'body\')).toContainText("Order placed: Blue Mug", { ignoreCase: true, useInnerText: true, timeout: STEP_TIMEOUT_MS });');
    expect(generated).toContain('await expect(page.locator(\'body\')).toContainText("Order placed: Blue Mug", { timeout: STEP_TIMEOUT_MS });');
    expect(generated.filter((line) => line.startsWith('await') && line.includes('"saved"'))).toEqual(['await expect(page.locator(\'body\')).toContainText("saved", { ignoreCase: true, useInnerText: true, timeout: STEP_TIMEOUT_MS });']);
  });
});
