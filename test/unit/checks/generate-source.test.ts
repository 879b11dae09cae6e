import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { generatePlaywrightSource, type PlaywrightSourceInput } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema, type CompiledCheck } from '../../../src/core/check.js';
import { AppError } from '../../../src/core/errors.js';
import { uploadFileFor } from '../../../src/core/upload-file.js';
import { DEMO_SHOP_CHECK, DEMO_SHOP_REFS } from '../../integration/checks/demo-shop-check.js';
import { PLAIN_CJS_OPTIONS, STRICT_ESM_OPTIONS, typeErrors } from './typecheck-source.js';

const BASE_URL = 'https://shop.example.test';
const journey = (overrides: Partial<PlaywrightSourceInput> = {}): PlaywrightSourceInput => ({
  name: 'Demo shop purchase',
  check: DEMO_SHOP_CHECK,
  baseUrl: BASE_URL,
  ...DEMO_SHOP_REFS,
  ...overrides,
});

/** One compiled check with every action and every element state, and each locator strategy. */
const EVERY_STEP: CompiledCheck = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Open the settings', url: 'https://shop.example.test/settings?tab=a' } },
    { step: { action: 'select', description: 'Pick a plan', target: { by: 'label', name: 'Plan' }, value: { kind: 'literal', text: 'Team' } }, locator: { strategy: 'label', name: 'Plan', exact: true } },
    { step: { action: 'select', description: 'Pick the saved card', target: { by: 'label', name: 'Card' }, value: { kind: 'testValue', name: 'card' } }, locator: { strategy: 'label', name: 'Card', exact: false } },
    { step: { action: 'check', description: 'Accept the terms', target: { by: 'label', name: 'I agree' }, checked: true }, locator: { strategy: 'label', name: 'I agree', exact: false } },
    { step: { action: 'check', description: 'No newsletter', target: { by: 'label', name: 'Newsletter' }, checked: false }, locator: { strategy: 'role', role: 'checkbox', name: 'Newsletter', exact: false } },
    { step: { action: 'press', description: 'Press Enter in Search', key: 'Enter', target: { by: 'placeholder', name: 'Search' } }, locator: { strategy: 'placeholder', name: 'Search', exact: false } },
    { step: { action: 'press', description: 'Press Escape', key: 'Escape' } },
    { step: { action: 'waitFor', description: 'Wait for the results', target: { by: 'text', name: 'Results' } }, locator: { strategy: 'text', name: 'Results', exact: true } },
    { step: { action: 'expectText', description: 'The banner says saved', text: 'Saved', target: { by: 'role', role: 'status', name: 'Saved' } }, locator: { strategy: 'role', role: 'status', name: 'Saved', exact: false } },
    { step: { action: 'expectUrl', description: 'The URL has the tab', contains: '?tab=a' } },
    ...(['visible', 'enabled', 'disabled', 'checked', 'unchecked', 'valid', 'invalid'] as const).map((state) => ({
      step: { action: 'expectState', description: `Save is ${state}`, target: { by: 'role', role: 'button', name: 'Save' }, state },
      locator: { strategy: 'role', role: 'button', name: 'Save', exact: false },
    })),
    { step: { action: 'expectState', description: 'The spinner is gone', target: { by: 'text', name: 'Loading' }, state: 'hidden' } },
    { step: { action: 'expectCount', description: 'Three plans', target: { by: 'role', role: 'heading', name: 'Plan' }, count: 3 }, locator: { strategy: 'role', role: 'heading', name: 'Plan', exact: false } },
    { step: { action: 'expectCount', description: 'Two rows', target: { by: 'text', name: 'Row' }, count: 2 } },
    {
      step: { action: 'expectCount', description: 'Three plans in the list', target: { by: 'role', role: 'list', name: 'Plans' }, itemRole: 'listitem', count: 3 },
      locator: { strategy: 'role', role: 'list', name: 'Plans', exact: false },
    },
    { step: { action: 'click', description: 'Open the menu', target: { by: 'text', name: 'Menu' } }, locator: { strategy: 'role', role: 'link', name: 'Menu', exact: true } },
  ],
  successCriteria: [],
});

/** The string literals of a source file, by value, as TypeScript parses them. */
function stringLiterals(source: string): string[] {
  const file = ts.createSourceFile('generated.spec.ts', source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** What each call calls: a function's name, or a method's name (`goto`, `toHaveURL`, …). */
function calledNames(source: string): string[] {
  const file = ts.createSourceFile('generated.spec.ts', source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      found.push(ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** How the source uses the identifier `process`: `process.env` only, in a file that adds no code. */
function usesOfProcess(source: string): string[] {
  const file = ts.createSourceFile('generated.spec.ts', source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === 'process') found.push(node.parent.getText(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function appErrorOf(call: () => unknown): AppError {
  try {
    call();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

describe('generatePlaywrightSource: the demo shop journey', () => {
  const source = generatePlaywrightSource(journey());
  const lines = source.split('\n').map((line) => line.trim());

  it('is one @playwright/test file whose target defaults to the compiled base URL', () => {
    expect(lines).toContain("import { expect, test, type Locator, type Page } from '@playwright/test';");
    expect(lines).toContain(`const BASE_URL = process.env.QA_BASE_URL || "${BASE_URL}";`);
    expect(lines).toContain('test("Demo shop purchase", async ({ page }) => {');
    expect(source.match(/\btest\(/g)).toHaveLength(1);
  });

  it('numbers every step with its description, in order', () => {
    const comments = lines.filter((line) => /^\/\/ \d+\. /.test(line));
    expect(comments).toEqual(DEMO_SHOP_CHECK.steps.map(({ step }, index) => expect.stringMatching(new RegExp(`^// ${index + 1}\\. ${step.description.replace(/\$/g, '\\$')}`))));
    expect(lines).toContain('// 5. The products page is open (criterion signed_in)');
  });

  it('makes the Playwright call of each step with the locator the run resolved', () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        "await page.goto(new URL(\"/login\", BASE_URL).href, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });",
        'await visible(page.getByLabel("Email")).fill(fromEnv("DEMO_EMAIL"), { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByLabel("Password")).fill(fromEnv("DEMO_PASSWORD"), { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("button", { name: "Sign in" })).click({ timeout: STEP_TIMEOUT_MS });',
        'await expect(page).toHaveURL(urlContaining("/products"), { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("button", { name: "Add Desk Lamp to cart" })).click({ timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByLabel("Coupon")).fill("SAVE10", { timeout: STEP_TIMEOUT_MS });',
        "await expect(page.locator('body')).toContainText(\"Total: $90\", { ignoreCase: true, useInnerText: true, timeout: STEP_TIMEOUT_MS });",
        'await expectProbe("order_created", "PROBE_URL", "PROBE_TOKEN");',
      ]),
    );
    // Each click waits for the page it may open, as the runner's settle() does.
    expect(lines.filter((line) => line === 'await settle(page);')).toHaveLength(5);
  });

  it('reads every test value and probe setting from the variable its ref names, all checked before step 1', () => {
    const requireLine = lines.indexOf('requireEnv(["DEMO_EMAIL", "DEMO_PASSWORD", "PROBE_URL", "PROBE_TOKEN"]);');
    expect(requireLine).toBeGreaterThan(-1);
    expect(requireLine).toBeLessThan(lines.findIndex((line) => line.startsWith('// 1. ')));
    expect(source).toMatch(/^\/\/ {3}DEMO_PASSWORD {2}test value demoPassword$/m);
    expect(source).toMatch(/^\/\/ {3}PROBE_TOKEN {4}evidence probe token of order_created$/m);
  });

  it('probes over HTTPS only, with the bearer token, no redirects and a 10 s deadline, and prints the evidence', () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        'const PROBE_TIMEOUT_MS = 10_000;',
        "if (url.protocol !== 'https:') throw new Error(what + ' must be an https URL');",
        "headers: { authorization: 'Bearer ' + fromEnv(tokenEnv), accept: 'application/json' },",
        "redirect: 'manual',",
        'signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),',
        "expect(answer.passed, 'Evidence probe of ' + criterion + ': ' + answer.evidence).toBe(true);",
      ]),
    );
  });

  it('gives the same bytes for the same input', () => {
    const again = generatePlaywrightSource(journey({ check: structuredClone(DEMO_SHOP_CHECK), ...structuredClone(DEMO_SHOP_REFS) }));
    expect(again).toBe(source);
  });

  it('holds no secret value, even with the secrets set in the environment that generates it', () => {
    const secrets = { DEMO_EMAIL: 'demo@example.test', DEMO_PASSWORD: 'demo-Pa55word!', PROBE_URL: 'https://127.0.0.1:9/probe/orders?email=x', PROBE_TOKEN: 'demo-probe-token' };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets);
    try {
      const generated = generatePlaywrightSource(journey());
      expect(generated).toBe(source);
      for (const secret of Object.values(secrets)) expect(generated).not.toContain(secret);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('uses a given step timeout', () => {
    expect(generatePlaywrightSource(journey({ stepTimeoutMs: 2_500 }))).toContain('const STEP_TIMEOUT_MS = 2_500;');
    expect(lines).toContain('const STEP_TIMEOUT_MS = 10_000;');
  });
});

describe('generatePlaywrightSource: every step kind', () => {
  const source = generatePlaywrightSource({
    name: 'Every step',
    check: EVERY_STEP,
    baseUrl: BASE_URL,
    testValueSecretRefs: { card: 'SAVED_CARD' },
    evidenceProbeRefs: {},
  });
  const lines = source.split('\n').map((line) => line.trim());

  it('maps each action and state to the matching Playwright call', () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        'await selectOption(visible(page.getByLabel("Plan", { exact: true })), "Team");',
        'await selectOption(visible(page.getByLabel("Card")), fromEnv("SAVED_CARD"));',
        'await visible(page.getByLabel("I agree")).setChecked(true, { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("checkbox", { name: "Newsletter" })).setChecked(false, { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByPlaceholder("Search")).press("Enter", { timeout: STEP_TIMEOUT_MS });',
        'await page.keyboard.press("Escape");',
        'await expect(visible(page.getByText("Results", { exact: true }))).toBeVisible({ timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("status", { name: "Saved" }))).toContainText("Saved", { ignoreCase: true, useInnerText: true, timeout: STEP_TIMEOUT_MS });',
        'await expect(page).toHaveURL(urlContaining("?tab=a"), { timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("button", { name: "Save" }))).toBeEnabled({ timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("button", { name: "Save" }))).toBeDisabled({ timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("button", { name: "Save" }))).toBeChecked({ timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("button", { name: "Save" }))).toBeChecked({ checked: false, timeout: STEP_TIMEOUT_MS });',
        'await expect.poll(() => isValid(visible(page.getByRole("button", { name: "Save" }))), { timeout: STEP_TIMEOUT_MS }).toBe(true);',
        'await expect.poll(() => isValid(visible(page.getByRole("button", { name: "Save" }))), { timeout: STEP_TIMEOUT_MS }).toBe(false);',
        'await expect(visible(page.getByRole("heading", { name: "Plan" }))).toHaveCount(3, { timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("list", { name: "Plans" }))).toBeVisible({ timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(visible(page.getByRole("list", { name: "Plans" })).getByRole("listitem"))).toHaveCount(3, { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("link", { name: "Menu", exact: true })).click({ timeout: STEP_TIMEOUT_MS });',
      ]),
    );
  });

  it('checks a hidden target and counts an unresolved one the way the runner does: by every way of naming it', () => {
    const hidden = lines.filter((line) => line.endsWith('.toHaveCount(0, { timeout: STEP_TIMEOUT_MS });'));
    expect(hidden).toEqual([
      'await expect(visible(page.getByRole("heading", { name: "Loading" }))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
      'await expect(visible(page.getByLabel("Loading"))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
      'await expect(visible(page.getByRole("button", { name: "Loading" }))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
      'await expect(visible(page.getByRole("link", { name: "Loading" }))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
      'await expect(visible(page.getByText("Loading"))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
    ]);
    const count = source.slice(source.indexOf('await expect.poll(() => visibleCount(['));
    expect(count.slice(0, count.indexOf(';') + 1)).toBe(
      [
        'await expect.poll(() => visibleCount([',
        '    page.getByRole("heading", { name: "Row" }),',
        '    page.getByLabel("Row"),',
        '    page.getByRole("button", { name: "Row" }),',
        '    page.getByRole("link", { name: "Row" }),',
        '    page.getByText("Row"),',
        '  ]), { timeout: STEP_TIMEOUT_MS }).toBe(2);',
      ].join('\n'),
    );
  });

  it('defines only the helpers its steps use', () => {
    const minimal = generatePlaywrightSource({
      name: 'Just open it',
      check: compiledCheckSchema.parse({ steps: [{ step: { action: 'navigate', description: 'Open the home page', url: '/' } }], successCriteria: [] }),
      baseUrl: BASE_URL,
      testValueSecretRefs: {},
      evidenceProbeRefs: {},
    });
    expect(minimal).toContain("import { test } from '@playwright/test';");
    expect(minimal).not.toMatch(/function |requireEnv|PROBE_TIMEOUT_MS/);
    expect(source).not.toMatch(/expectProbe|PROBE_TIMEOUT_MS|NODE_EXTRA_CA_CERTS/);
  });
});

/** The steps of people's tests: each new action and state, nameless targets in a row or by position, list items. */
describe('a hidden element of one row', () => {
  it('looks for it only inside the row that shows the text, as the runner grounds it, not among every element of its kind', () => {
    const check = compiledCheckSchema.parse({
      steps: [
        { step: { action: 'navigate', description: 'Open the todos', url: '/' } },
        {
          step: { action: 'expectState', description: 'The checkbox of Pay rent is hidden', target: { by: 'role', role: 'checkbox', name: '', within: { text: 'Pay rent' } }, state: 'hidden' },
        },
      ],
      successCriteria: [],
    });
    const source = generatePlaywrightSource({ name: 'Todos', check, baseUrl: BASE_URL, testValueSecretRefs: {}, evidenceProbeRefs: {} });
    const hidden = source.split('\n').map((line) => line.trim()).filter((line) => line.endsWith('.toHaveCount(0, { timeout: STEP_TIMEOUT_MS });'));
    expect(hidden).toEqual([
      'await expect(visible(page.getByRole("listitem").filter({ has: page.getByText("Pay rent", { exact: true }) }).getByRole("checkbox"))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
      'await expect(visible(page.getByRole("row").filter({ has: page.getByText("Pay rent", { exact: true }) }).getByRole("checkbox"))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });',
    ]);
  });
});

const NEW_VOCABULARY: CompiledCheck = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Open the todos', url: '/' } },
    { step: { action: 'dblclick', description: 'Edit Buy milk', target: { by: 'text', name: 'Buy milk' } }, locator: { strategy: 'text', name: 'Buy milk', exact: true } },
    { step: { action: 'clear', description: 'Empty the edit field', target: { by: 'label', name: 'Edit task' } }, locator: { strategy: 'label', name: 'Edit task', exact: false } },
    { step: { action: 'hover', description: 'Point at Pay rent', target: { by: 'text', name: 'Pay rent' } }, locator: { strategy: 'text', name: 'Pay rent', exact: false } },
    {
      step: { action: 'check', description: 'Tick the checkbox of Pay rent', target: { by: 'role', role: 'checkbox', name: '', within: { text: 'Pay rent' } }, checked: true },
      locator: { strategy: 'role', role: 'checkbox', name: '', exact: false, scope: { role: 'listitem', text: 'Pay rent' } },
    },
    {
      step: { action: 'click', description: 'Delete Call Ada', target: { by: 'role', role: 'button', name: 'Delete', within: { text: 'Call Ada' } } },
      locator: { strategy: 'role', role: 'button', name: 'Delete', exact: true, scope: { role: 'listitem', text: 'Call Ada' } },
    },
    { step: { action: 'check', description: 'Tick the second checkbox', target: { by: 'role', role: 'checkbox', name: '', nth: 2 }, checked: true }, locator: { strategy: 'role', role: 'checkbox', name: '', exact: false, nth: 1 } },
    { step: { action: 'expectState', description: 'The last checkbox is unchecked', target: { by: 'role', role: 'checkbox', name: '', nth: -1 }, state: 'unchecked' }, locator: { strategy: 'role', role: 'checkbox', name: '', exact: false, nth: -1 } },
    { step: { action: 'scrollTo', description: 'Scroll to the footer', target: { by: 'role', role: 'contentinfo', name: '' } }, locator: { strategy: 'role', role: 'contentinfo', name: '', exact: false } },
    {
      step: { action: 'dragTo', description: 'Drag Card A to Done', target: { by: 'text', name: 'Card A' }, to: { by: 'role', role: 'region', name: 'Done' } },
      locator: { strategy: 'text', name: 'Card A', exact: false },
      toLocator: { strategy: 'role', role: 'region', name: 'Done', exact: false },
    },
    { step: { action: 'upload', description: 'Attach a picture', target: { by: 'label', name: 'Attachment' }, fileName: 'photo.png' }, locator: { strategy: 'label', name: 'Attachment', exact: false } },
    { step: { action: 'upload', description: 'Attach a list', target: { by: 'label', name: 'Attachment' }, fileName: 'items.csv' }, locator: { strategy: 'label', name: 'Attachment', exact: false } },
    { step: { action: 'reload', description: 'Reload' } },
    { step: { action: 'goBack', description: 'Back' } },
    { step: { action: 'goForward', description: 'Forward' } },
    { step: { action: 'expectState', description: 'Today is selected', target: { by: 'role', role: 'tab', name: 'Today' }, state: 'selected' }, locator: { strategy: 'role', role: 'tab', name: 'Today', exact: false } },
    { step: { action: 'expectState', description: 'Later is not', target: { by: 'role', role: 'tab', name: 'Later' }, state: 'unselected' }, locator: { strategy: 'role', role: 'tab', name: 'Later', exact: false } },
    { step: { action: 'expectState', description: 'The new item field has focus', target: { by: 'label', name: 'New item' }, state: 'focused' }, locator: { strategy: 'label', name: 'New item', exact: false } },
    {
      step: { action: 'expectItems', description: 'The tasks, in order', target: { by: 'role', role: 'list', name: 'Tasks' }, texts: ['Buy milk', 'Pay rent'], only: true, ordered: true },
      locator: { strategy: 'role', role: 'list', name: 'Tasks', exact: false },
    },
    { step: { action: 'expectItems', description: 'Some row shows Ada', itemRole: 'row', texts: ['Ada'] } },
    { step: { action: 'expectStorage', description: 'One completed todo is saved', key: 'react-todos', texts: ['Buy milk'], count: 1, where: 'completed' } },
  ],
  successCriteria: [],
});

describe('generatePlaywrightSource: the new vocabulary', () => {
  const source = generatePlaywrightSource({ name: 'Todos', check: NEW_VOCABULARY, baseUrl: BASE_URL, testValueSecretRefs: {}, evidenceProbeRefs: {} });
  const lines = source.split('\n').map((line) => line.trim());

  it('makes the calls the runner makes, with the locators inside their rows and at their positions', () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        'await visible(page.getByText("Buy milk", { exact: true })).dblclick({ timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByLabel("Edit task")).clear({ timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByText("Pay rent")).hover({ timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("listitem").filter({ has: page.getByText("Pay rent", { exact: true }) }).getByRole("checkbox")).setChecked(true, { timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("listitem").filter({ has: page.getByText("Call Ada", { exact: true }) }).getByRole("button", { name: "Delete", exact: true })).click({ timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("checkbox").filter({ visible: true }).nth(1)).setChecked(true, { timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("checkbox").filter({ visible: true }).last())).toBeChecked({ checked: false, timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByRole("contentinfo")).scrollIntoViewIfNeeded({ timeout: STEP_TIMEOUT_MS });',
        'await visible(page.getByText("Card A")).dragTo(visible(page.getByRole("region", { name: "Done" })), { timeout: STEP_TIMEOUT_MS });',
        `await visible(page.getByLabel("Attachment")).setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from("${uploadFileFor('photo.png').buffer.toString('base64')}", "base64") }, { timeout: STEP_TIMEOUT_MS });`,
        'await visible(page.getByLabel("Attachment")).setInputFiles({ name: "items.csv", mimeType: "text/csv", buffer: Buffer.from("name,quantity\\nExample item,1\\n", "utf8") }, { timeout: STEP_TIMEOUT_MS });',
        "await page.reload({ waitUntil: 'load', timeout: STEP_TIMEOUT_MS });",
        'await goInHistory(page, "back");',
        'await goInHistory(page, "forward");',
        'await expect.poll(() => isSelected(visible(page.getByRole("tab", { name: "Today" }))), { timeout: STEP_TIMEOUT_MS }).toBe(true);',
        'await expect.poll(() => isSelected(visible(page.getByRole("tab", { name: "Later" }))), { timeout: STEP_TIMEOUT_MS }).toBe(false);',
        'await expect(visible(page.getByLabel("New item"))).toBeFocused({ timeout: STEP_TIMEOUT_MS });',
        'await expect(visible(page.getByRole("list", { name: "Tasks" }))).toBeVisible({ timeout: STEP_TIMEOUT_MS });',
        'await expectItems(visible(visible(page.getByRole("list", { name: "Tasks" })).getByRole("listitem")), ["Buy milk", "Pay rent"], { only: true, ordered: true });',
        'await expectItems(visible(page.getByRole("row")), ["Ada"], { only: false, ordered: false });',
        'await expectStorage(page, JSON.parse("{\\"texts\\":[\\"Buy milk\\"],\\"key\\":\\"react-todos\\",\\"count\\":1,\\"where\\":\\"completed\\"}"));',
      ]),
    );
    // A double-click waits for the page it may open, as a click does.
    expect(lines[lines.indexOf('await visible(page.getByText("Buy milk", { exact: true })).dblclick({ timeout: STEP_TIMEOUT_MS });') + 1]).toBe('await settle(page);');
  });

  it('carries the upload\'s bytes exactly, the same for the same input', () => {
    const base64 = /Buffer\.from\("([^"]+)", "base64"\)/.exec(source)![1]!;
    expect(Buffer.from(base64, 'base64').equals(uploadFileFor('photo.png').buffer)).toBe(true);
    expect(generatePlaywrightSource({ name: 'Todos', check: NEW_VOCABULARY, baseUrl: BASE_URL, testValueSecretRefs: {}, evidenceProbeRefs: {} })).toBe(source);
  });

  it('defines the helpers the new steps use, and only those', () => {
    expect(source).toContain("import { expect, test, type Locator, type Page } from '@playwright/test';");
    for (const helper of ['goInHistory', 'isSelected', 'itemsMatch', 'expectItems', 'storageMatch', 'expectStorage', 'settle', 'visible']) expect(source).toContain(`function ${helper}(`);
    expect(source).toContain("const SELECTED_CLASSES = ['selected', 'active', 'current', 'is-selected', 'is-active'];");
    expect(source).not.toMatch(/function (isValid|visibleCount|selectOption|expectProbe)\(/);
  });

  it('refuses a drag without its stored drop target', () => {
    const step = NEW_VOCABULARY.steps[9]!;
    const { toLocator: _dropped, ...withoutTo } = step;
    const check = { ...NEW_VOCABULARY, steps: [withoutTo] };
    expect(appErrorOf(() => generatePlaywrightSource({ name: 'x', check, baseUrl: BASE_URL, testValueSecretRefs: {}, evidenceProbeRefs: {} })).message).toBe(
      'Step 1 (dragTo) of the compiled check has no resolved drop target locator; compile the check again from a passing run',
    );
  });
});

/** Names, descriptions and texts written to break out of a literal or a comment. */
const HOSTILE = {
  name: 'Buy "it"\n}); process.exit(1); test("x", async () => {',
  description: 'Check it */ process.exit(1) /* and\nprocess.exit(2)\r\u2028process.exit(3)',
  bidi: 'Pay \u202eroF\u202c \u2066now\u2069',
  text: `It's "quoted" \`tick\` \${process.exit(4)} \\ done`,
  url: '/search?q="${process.exit(5)}"&x=`y`',
  locator: '")); process.exit(6); ((("',
  valueName: 'note */ process.exit(9)\nprocess.exit(10)',
  criterion: 'made"); process.exit(11); ("',
};
const HOSTILE_CHECK = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: HOSTILE.description, url: HOSTILE.url } },
    { step: { action: 'click', description: HOSTILE.bidi, target: { by: 'text', name: HOSTILE.locator } }, locator: { strategy: 'role', role: 'button', name: HOSTILE.locator, exact: false } },
    { step: { action: 'fill', description: '*/', target: { by: 'label', name: 'Note' }, value: { kind: 'literal', text: HOSTILE.text } }, locator: { strategy: 'label', name: 'Note', exact: false } },
    { step: { action: 'expectText', description: 'Shows it', text: HOSTILE.text, criterion: '*/ process.exit(7) //\nx' } },
    { step: { action: 'expectUrl', description: 'URL', contains: HOSTILE.url } },
    { step: { action: 'fill', description: 'Note', target: { by: 'label', name: 'Note' }, value: { kind: 'testValue', name: HOSTILE.valueName } }, locator: { strategy: 'label', name: 'Note', exact: false } },
    { step: { action: 'probe', description: 'Probe', criterion: HOSTILE.criterion } },
  ],
  successCriteria: [],
});
const HOSTILE_SOURCE = generatePlaywrightSource({
  name: HOSTILE.name,
  check: HOSTILE_CHECK,
  baseUrl: 'https://x.test/"+process.exit(8)+"',
  testValueSecretRefs: { [HOSTILE.valueName]: 'NOTE_TEXT', probeUrl: 'PROBE_URL', probeToken: 'PROBE_TOKEN' },
  evidenceProbeRefs: { [HOSTILE.criterion]: { urlValueRef: 'probeUrl', tokenValueRef: 'probeToken' } },
});

describe('generatePlaywrightSource: hostile text', () => {
  const source = HOSTILE_SOURCE;

  it('adds no code: the only calls are the ones the steps make', () => {
    expect(calledNames(source)).not.toContain('exit');
    expect(new Set(usesOfProcess(source))).toEqual(new Set(['process.env']));
    expect(source.split('\n').filter((line) => /^\s*\/\//.test(line) && line.includes('*/'))).toEqual([]);
    expect(source).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it('keeps every text exactly, as string literals', () => {
    const literals = stringLiterals(source);
    expect(literals).toEqual(expect.arrayContaining([HOSTILE.name, HOSTILE.text, HOSTILE.url, HOSTILE.locator, HOSTILE.criterion, 'https://x.test/"+process.exit(8)+"']));
    expect(source.match(/^ *\/\/ \d+\. .*$/gm)).toEqual([
      '  // 1. Check it * / process.exit(1) /* and process.exit(2) process.exit(3)',
      '  // 2. Pay roF now',
      '  // 3. * /',
      '  // 4. Shows it (criterion * / process.exit(7) // x)',
      '  // 5. URL',
      '  // 6. Note',
      '  // 7. Probe (criterion made"); process.exit(11); (")',
    ]);
    expect(source).toContain('//   NOTE_TEXT    test value note * / process.exit(9) process.exit(10)');
    expect(source).toContain(`await expectProbe(${JSON.stringify(HOSTILE.criterion)}, "PROBE_URL", "PROBE_TOKEN");`);
  });
});

describe('generatePlaywrightSource: refusals', () => {
  const withRefs = (testValueSecretRefs: Record<string, string>, evidenceProbeRefs: PlaywrightSourceInput['evidenceProbeRefs'] = DEMO_SHOP_REFS.evidenceProbeRefs) =>
    journey({ testValueSecretRefs, evidenceProbeRefs });

  it.each(['DEMO-PASSWORD', '1PASSWORD', 'DEMO PASSWORD', 'X");process.exit(1);("', '', 'PASSWÖRD'])('refuses the variable name %j', (variable) => {
    const error = appErrorOf(() => generatePlaywrightSource(withRefs({ ...DEMO_SHOP_REFS.testValueSecretRefs, demoPassword: variable })));
    expect(error.code).toBe('check.env_name_invalid');
    expect(error.message).toContain('testValueSecretRefs.demoPassword');
  });

  it('refuses a test value no ref names, inherited object keys included', () => {
    const { demoPassword: _dropped, ...rest } = DEMO_SHOP_REFS.testValueSecretRefs;
    expect(appErrorOf(() => generatePlaywrightSource(withRefs(rest))).code).toBe('check.test_value_unknown');
    const inherited = compiledCheckSchema.parse({
      steps: [{ step: { action: 'fill', description: 'x', target: { by: 'label', name: 'X' }, value: { kind: 'testValue', name: 'constructor' } }, locator: { strategy: 'label', name: 'X', exact: false } }],
      successCriteria: [],
    });
    expect(appErrorOf(() => generatePlaywrightSource(journey({ check: inherited }))).code).toBe('check.test_value_unknown');
  });

  it('refuses a probe step without a configured probe, or with refs that name no test value', () => {
    expect(appErrorOf(() => generatePlaywrightSource(withRefs(DEMO_SHOP_REFS.testValueSecretRefs, {}))).code).toBe('check.probe_unknown');
    const error = appErrorOf(() => generatePlaywrightSource(withRefs(DEMO_SHOP_REFS.testValueSecretRefs, { order_created: { urlValueRef: 'probeUrl', tokenValueRef: 'nope' } })));
    expect(error.code).toBe('check.probe_ref_unknown');
    expect(error.message).toContain('evidenceProbeRefs.order_created.tokenValueRef');
  });

  it('refuses a step that needs a resolved locator and has none', () => {
    const check = compiledCheckSchema.parse({
      steps: [{ step: { action: 'click', description: 'Click Go', target: { by: 'text', name: 'Go' } } }],
      successCriteria: [],
    });
    const error = appErrorOf(() => generatePlaywrightSource(journey({ check })));
    expect(error.code).toBe('check.locator_missing');
    expect(error.message).toContain('Step 1 (click)');
  });
});

/** "log in as … / …" compiled on a page whose form's "Sign in" shares its name with a header button. */
const SIGN_IN_CHECK: CompiledCheck = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Go to /login', url: '/login' } },
    { step: { action: 'fill', description: 'Fill Email', target: { by: 'label', name: 'Email' }, value: { kind: 'literal', text: 'ada@example.test' } }, locator: { strategy: 'label', name: 'Email', exact: false } },
    { step: { action: 'fill', description: 'Fill Password', target: { by: 'label', name: 'Password' }, value: { kind: 'testValue', name: 'demoPassword' } }, locator: { strategy: 'label', name: 'Password', exact: false } },
    {
      step: { action: 'click', description: 'Click the sign-in button', target: { by: 'role', role: 'button', name: 'Log in', purpose: 'signIn' } },
      locator: { strategy: 'role', role: 'button', name: 'Sign in', exact: true, within: 'passwordForm' },
    },
  ],
  successCriteria: [],
});
const SIGN_IN_SOURCE = generatePlaywrightSource({ name: 'Shop sign-in', check: SIGN_IN_CHECK, baseUrl: BASE_URL, testValueSecretRefs: { demoPassword: 'DEMO_PASSWORD' }, evidenceProbeRefs: {} });

describe('generatePlaywrightSource: the sign-in submit found by purpose', () => {
  it('clicks the control the run resolved, looked up inside the password\'s form as the replay does', () => {
    expect(SIGN_IN_SOURCE.split('\n').map((line) => line.trim())).toContain(
      'await visible(page.locator("form:has(input[type=\\"password\\"])").getByRole("button", { name: "Sign in", exact: true })).click({ timeout: STEP_TIMEOUT_MS });',
    );
    // The task's word ("Log in") is only in the step's description, never a locator.
    expect(stringLiterals(SIGN_IN_SOURCE)).not.toContain('Log in');
  });
});

describe('generated source type-checks against @playwright/test', () => {
  const files = {
    'journey.spec.ts': generatePlaywrightSource(journey()),
    'every-step.spec.ts': generatePlaywrightSource({ name: 'Every step', check: EVERY_STEP, baseUrl: BASE_URL, testValueSecretRefs: { card: 'SAVED_CARD' }, evidenceProbeRefs: {} }),
    'hostile.spec.ts': HOSTILE_SOURCE,
    'sign-in.spec.ts': SIGN_IN_SOURCE,
    'new-vocabulary.spec.ts': generatePlaywrightSource({ name: 'Todos', check: NEW_VOCABULARY, baseUrl: BASE_URL, testValueSecretRefs: {}, evidenceProbeRefs: {} }),
  };

  // The hostile texts' file too: escaping must leave valid source.
  it('in a strict ESM project without the DOM library (this repository\'s settings and more)', () => {
    expect(typeErrors(files, STRICT_ESM_OPTIONS)).toEqual([]);
  });

  it('in a plain CommonJS project with the default libraries', () => {
    expect(typeErrors(files, PLAIN_CJS_OPTIONS)).toEqual([]);
  });

  it('and a type error in it would be reported (the check is not vacuous)', () => {
    const broken = files['journey.spec.ts'].replace('toContainText("Total: $90"', 'toContainText(90');
    expect(typeErrors({ 'broken.spec.ts': broken }, STRICT_ESM_OPTIONS)).toEqual([expect.stringContaining('broken.spec.ts')]);
  });
});
