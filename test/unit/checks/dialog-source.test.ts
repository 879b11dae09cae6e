/**
 * The generated source of a check with the browser's dialogs and a right click: one listener answers the dialogs as
 * the run did, told before the step that opens them; the dialog step checks what the dialog said; no dialog nobody
 * expected may have opened by the end. (test/integration/checks/dialog-source.test.ts runs such a file.)
 */
import { describe, expect, it } from '@jest/globals';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema, type CompiledCheck } from '../../../src/core/check.js';
import { PLAIN_CJS_OPTIONS, STRICT_ESM_OPTIONS, typeErrors } from './typecheck-source.js';

const DIALOGS: CompiledCheck = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Open the page', url: '/' } },
    { step: { action: 'click', description: 'Click Rename', target: { by: 'role', role: 'button', name: 'Rename' } }, locator: { strategy: 'role', role: 'button', name: 'Rename', exact: true } },
    { step: { action: 'dialog', description: 'The prompt asks for a name; type Ada and press OK', accept: true, promptText: 'Ada', text: 'New name?', criterion: 'asks' } },
    { step: { action: 'rightClick', description: 'Right-click the box', target: { by: 'description', name: 'the dashed box' } }, locator: { strategy: 'role', role: 'region', name: 'Menu area', exact: false } },
    { step: { action: 'dialog', description: 'An alert opens; press OK', accept: true } },
    { step: { action: 'dialog', description: 'A confirm follows; press Cancel', accept: false, text: 'Sure?' } },
    { step: { action: 'expectText', description: 'The result', text: 'Renamed to Ada' } },
  ],
  successCriteria: [{ key: 'asks', description: 'the prompt asks for a name' }],
});

describe('generatePlaywrightSource: dialogs and a right click', () => {
  const source = generatePlaywrightSource({ name: 'Dialogs', check: DIALOGS, baseUrl: 'https://app.example.test', testValueSecretRefs: {}, evidenceProbeRefs: {} });
  const lines = source.split('\n').map((line) => line.trim());

  it('answers the dialogs from the first line of the test, each step\'s before the step acts', () => {
    const at = (line: string) => lines.indexOf(line);
    expect(at('const dialogs = answerDialogs(page);')).toBeGreaterThan(at("test(\"Dialogs\", async ({ page }) => {"));
    expect(at('const dialogs = answerDialogs(page);')).toBeLessThan(at("await page.goto(new URL(\"/\", BASE_URL).href, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });"));
    const rename = at('await visible(page.getByRole("button", { name: "Rename", exact: true })).click({ timeout: STEP_TIMEOUT_MS });');
    expect(lines[rename - 1]).toBe('dialogs.expectFromNextStep([{ accept: true, promptText: "Ada" }]);');
    expect(lines[rename + 1]).toBe('await settle(page);');
    expect(lines[rename + 3]).toBe('// 3. The prompt asks for a name; type Ada and press OK (criterion asks)');
    expect(lines[rename + 4]).toBe('await dialogs.opened("New name?");');
    // Two dialogs from one right click, answered in order.
    const right = at('await visible(page.getByRole("region", { name: "Menu area" })).click({ button: \'right\', timeout: STEP_TIMEOUT_MS });');
    expect(lines[right - 1]).toBe('dialogs.expectFromNextStep([{ accept: true }, { accept: false }]);');
    expect(lines[right + 1]).toBe('await settle(page);');
    expect(lines).toEqual(expect.arrayContaining(['await dialogs.opened();', 'await dialogs.opened("Sure?");']));
    // A step that opens none says nothing about dialogs.
    expect(lines.filter((line) => line.startsWith('dialogs.expectFromNextStep('))).toHaveLength(2);
    expect(lines[lines.indexOf('});', at('await dialogs.opened("Sure?");')) - 1]).toBe("expect(dialogs.unexpected, 'dialogs no step expected').toEqual([]);");
  });

  it('defines the dialog helper only when a step needs it', () => {
    expect(source).toContain('function answerDialogs(page: Page) {');
    expect(source).toContain("import { expect, test, type Locator, type Page } from '@playwright/test';");
    const plain = generatePlaywrightSource({ name: 'Plain', check: { ...DIALOGS, steps: DIALOGS.steps.filter(({ step }) => step.action !== 'dialog') }, baseUrl: 'https://app.example.test', testValueSecretRefs: {}, evidenceProbeRefs: {} });
    expect(plain).not.toContain('answerDialogs');
    expect(plain).not.toContain('dialogs.');
  });

  it('type-checks in a strict ESM project and in a plain CommonJS one', () => {
    expect(typeErrors({ 'dialogs.spec.ts': source }, STRICT_ESM_OPTIONS)).toEqual([]);
    expect(typeErrors({ 'dialogs.spec.ts': source }, PLAIN_CJS_OPTIONS)).toEqual([]);
  });
});
