/**
 * Failed expectations in real Chromium on the demo shop, planned by the rule planner from the task as a person
 * writes it: an element that is there but shows another text, title, value, count or state fails as
 * `assertion_failed` with what was expected and what the page shows; a target that is truly absent stays
 * `step_unresolvable`. The same checks, compiled to Playwright source and run with `playwright test`, fail with
 * Playwright's own expected/received diff.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import type { CompiledCheck, CompiledStep } from '../../../src/core/check.js';
import type { Plan } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';
import { createPlaywrightProject, type PlaywrightProject } from '../checks/playwright-project.js';

const STEP_TIMEOUT_MS = 1_500;
const PRICING_HEADINGS = ['Pricing', 'Starter', 'Pro', 'Team'];

async function planOf(task: string): Promise<Plan> {
  const interpretation = await createRulePlanner().interpret(task, { testValueNames: [], evidenceCriteria: [] });
  if (interpretation.kind !== 'runnable') throw new Error(`${task}: ${JSON.stringify(interpretation)}`);
  return interpretation.plan;
}

describe('failed expectations on the demo shop', () => {
  let demo: DemoApp;
  let browsers: BrowserPool;
  let session: BrowserSession | undefined;

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
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(demo.url, []));
  });

  /** Plans the task and runs it; every step but the last must pass. The steps as they ran, and the last result. */
  async function run(task: string): Promise<{ last: StepResult; resolved: CompiledStep[] }> {
    const plan = await planOf(task);
    const resolved: CompiledStep[] = [];
    for (const [index, step] of plan.steps.entries()) {
      const result = await runStep(session!.page, step, { baseUrl: demo.url, timeoutMs: STEP_TIMEOUT_MS, testValue: () => undefined, allowlist: session!.allowlist });
      resolved.push({ step, ...(result.locator ? { locator: result.locator } : {}) });
      if (index === plan.steps.length - 1) return { last: result, resolved };
      expect({ index, result }).toEqual({ index, result: expect.objectContaining({ status: 'passed' }) });
    }
    throw new Error('a plan has steps');
  }

  it('a heading that says something else: assertion_failed, expected the text, actual the page\'s headings', async () => {
    const { last } = await run('Go to /pricing and check that the heading says "Gadgets Galore"');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: 'Gadgets Galore' } });
    if (last.status !== 'failed') return;
    expect([...last.comparison!.actual].sort()).toEqual([...PRICING_HEADINGS].sort());
    expect(last.message).toBe(`No heading shows "Gadgets Galore"; the page's headings show ${last.comparison!.actual.map((text) => JSON.stringify(text)).join(', ')}`);
    expect((await run('Go to /pricing and check that the main heading is "pricing"')).last).toEqual({ status: 'passed' });
  });

  it('a heading named by the text it should show, not there while other headings are: the same failure', async () => {
    const { last } = await run('Go to /pricing and check that the Gadgets Galore heading is visible');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: 'Gadgets Galore' } });
    if (last.status === 'failed') expect([...last.comparison!.actual].sort()).toEqual([...PRICING_HEADINGS].sort());
  });

  it('a named heading that shows other text: expected the text, actual what it shows', async () => {
    const { last } = await run('Go to /pricing and check that the Pro heading says "$30"');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: '"Pro" shows "Pro", which does not contain "$30"', comparison: { expected: '$30', actual: ['Pro'] } });
  });

  it('the title: expected the text, actual the page title', async () => {
    const { last } = await run('Go to /pricing and check that the title is "Gadgets Galore"');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: 'Gadgets Galore', actual: ['Pricing · Demo Shop'] } });
    expect((await run('Go to /pricing and check that the page title says pricing')).last).toEqual({ status: 'passed' });
  });

  it('a field\'s value: expected the value, actual what the field holds', async () => {
    const { last } = await run('Go to /login, type "a@b.test" into the Email field and check that the Email field contains "x@y.test"');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: '"Email" holds "a@b.test", expected "x@y.test"', comparison: { expected: 'x@y.test', actual: ['a@b.test'] } });
    expect((await run('Go to /login and check that the Email field is empty')).last).toEqual({ status: 'passed', locator: expect.objectContaining({ strategy: 'label', name: 'Email' }) });
  });

  it('a password field\'s value is never repeated, only its length', async () => {
    const { last } = await run('Go to /login, type "hunter22" into the Password field and check that the Password field is empty');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: '', actual: ['(a password of 8 characters)'] } });
    expect(JSON.stringify(last)).not.toContain('hunter22');
  });

  it('a list\'s count: expected the number of items, actual how many there are and what they say', async () => {
    const { last } = await run('Go to /pricing and check that the Plans list has 4 items');
    expect(last).toMatchObject({
      status: 'failed',
      kind: 'assertion_failed',
      message: 'Expected 4 listitem item(s) in "Plans", found 3',
      comparison: { expected: '4 items', actual: ['3 items: "Starter", "Pro", "Team"'] },
    });
  });

  it('a button\'s state: expected disabled, actual enabled', async () => {
    const { last } = await run('Go to /login and check that the Sign in button is disabled');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: 'disabled', actual: ['enabled'] } });
  });

  it('text the page does not show: the nearest lines of the page', async () => {
    const { last } = await run('Go to /pricing and check that the page says "Pro $30 per month"');
    expect(last).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: 'The page does not show "Pro $30 per month"', comparison: { expected: 'Pro $30 per month' } });
    if (last.status === 'failed') expect(last.comparison!.actual).toEqual(expect.arrayContaining(['$0 per month', '$29 per month', '$99 per month']));
  });

  it('a target that is truly absent stays step_unresolvable: a field, a button, a page without any heading', async () => {
    const field = (await run('Go to /pricing and check that the Coupon field contains "SAVE10"')).last;
    expect(field).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringContaining('Nothing on the page matches "Coupon"') });
    expect(field).not.toHaveProperty('comparison');
    const button = (await run('Go to /pricing and check that the Checkout button is disabled')).last;
    expect(button).toMatchObject({ status: 'failed', kind: 'step_unresolvable' });
    const headless = (await run('Go to /healthz and check that the heading says "OK"')).last;
    expect(headless).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: 'The page has no heading (looked for role heading)' });
  });

  describe('the same checks as generated Playwright source, run with playwright test', () => {
    let project: PlaywrightProject | undefined;
    afterAll(async () => {
      await project?.remove();
    });

    it('fails each with Playwright\'s own expected/received diff', async () => {
      const tasks: Record<string, string> = {
        'heading.spec.ts': 'Go to /pricing and check that the heading says "Gadgets Galore"',
        'title.spec.ts': 'Go to /pricing and check that the title is "Gadgets Galore"',
        'value.spec.ts': 'Go to /login, type "a@b.test" into the Email field and check that the Email field contains "x@y.test"',
        'count.spec.ts': 'Go to /pricing and check that the Plans list has 4 items',
      };
      const files: Record<string, string> = {};
      for (const [file, task] of Object.entries(tasks)) {
        const { resolved } = await run(task);
        const check: CompiledCheck = { steps: resolved, successCriteria: [] };
        files[file] = generatePlaywrightSource({ name: task, check, baseUrl: demo.url, stepTimeoutMs: STEP_TIMEOUT_MS, testValueSecretRefs: {}, evidenceProbeRefs: {} });
      }
      project = await createPlaywrightProject(files);
      const outcome = await project.run({});
      expect(outcome).toMatchObject({ code: 1, stats: { expected: 0, unexpected: 4 } });
      const output = outcome.output;
      // toContainText over the headings: the expected text against every heading's text.
      expect(output).toMatch(/toContainText\(expected\) failed\s+Locator: getByRole\('heading'\)\.visible\(\)[\s\S]*?-\s+"Gadgets Galore",\s+\+\s+"Pricing",\s+\+\s+"Starter",\s+\+\s+"Pro",\s+\+\s+"Team",/);
      // toHaveTitle, toHaveValue, toHaveCount: each with the value the page had.
      expect(output).toMatch(/Expected pattern: \/Gadgets\\s\+Galore\/i\s+Received string:\s+"Pricing · Demo Shop"/);
      expect(output).toMatch(/Expected: "x@y\.test"\s+Received: "a@b\.test"/);
      expect(output).toMatch(/Expected: 4\s+Received: 3/);
    }, 120_000);
  });
});
