/**
 * The new vocabulary compiled and run both ways on the todo app (test/support/todo-site.ts): a check recorded from a
 * run (targets resolved on the page, nameless ones stored with their row or position as grounding stores them)
 * passes as a replay and as generated source under the real `playwright test`; the same check with the list's
 * order changed fails both, at the same step, with the expected texts against the items shown.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema, type CompiledCheck, type CompiledStep, type ResolvedLocator } from '../../../src/core/check.js';
import { stepSchema, type PlanStep } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startTodoSite, type TodoSite } from '../../support/todo-site.js';
import { createPlaywrightProject, type PlaywrightProject } from './playwright-project.js';

const STEP_TIMEOUT_MS = 5_000;
const RUN_TIMEOUT_MS = 90_000;

const nameless = (role: string, extra: Partial<ResolvedLocator>): ResolvedLocator => ({ strategy: 'role', role, name: '', exact: false, ...extra });

/** The task's steps; a grounded locator where the page has no name for the element (ground.ts stores these). */
const STEPS: Array<[Record<string, unknown>, ResolvedLocator?]> = [
  [{ action: 'navigate', url: '/' }],
  [{ action: 'dblclick', target: { by: 'text', name: 'Buy milk' } }],
  [{ action: 'expectState', target: { by: 'label', name: 'Edit task' }, state: 'focused' }],
  [{ action: 'clear', target: { by: 'label', name: 'Edit task' } }],
  [{ action: 'fill', target: { by: 'label', name: 'Edit task' }, value: { kind: 'literal', text: 'Buy oat milk' } }],
  [{ action: 'press', target: { by: 'label', name: 'Edit task' }, key: 'Enter' }],
  [{ action: 'hover', target: { by: 'text', name: 'Call Ada' } }],
  [
    { action: 'click', target: { by: 'role', role: 'button', name: 'Delete', exact: true, within: { text: 'Call Ada' } } },
    { strategy: 'role', role: 'button', name: 'Delete', exact: true, scope: { role: 'listitem', text: 'Call Ada' } },
  ],
  [{ action: 'check', target: { by: 'role', role: 'checkbox', name: '', within: { text: 'Pay rent' } } }, nameless('checkbox', { scope: { role: 'listitem', text: 'Pay rent' } })],
  [{ action: 'expectState', target: { by: 'role', role: 'checkbox', name: '', nth: -1 }, state: 'checked' }, nameless('checkbox', { nth: -1 })],
  [{ action: 'expectState', target: { by: 'role', role: 'checkbox', name: '', nth: 1 }, state: 'unchecked' }, nameless('checkbox', { nth: 0 })],
  [{ action: 'expectState', target: { by: 'role', role: 'tab', name: 'Today' }, state: 'selected' }],
  [{ action: 'expectState', target: { by: 'role', role: 'tab', name: 'Later' }, state: 'unselected' }],
  [{ action: 'expectState', target: { by: 'label', name: 'Large' }, state: 'selected' }],
  [{ action: 'click', target: { by: 'role', role: 'link', name: 'Completed' } }],
  [{ action: 'expectState', target: { by: 'role', role: 'link', name: 'Completed' }, state: 'selected' }],
  [{ action: 'expectItems', target: { by: 'role', role: 'list', name: 'Tasks' }, texts: ['pay RENT'], only: true }],
  [{ action: 'click', target: { by: 'role', role: 'link', name: 'All' } }],
  [{ action: 'expectItems', target: { by: 'role', role: 'list', name: 'Tasks' }, texts: ['Buy oat milk', 'Pay rent'], only: true, ordered: true }],
  [{ action: 'expectItems', texts: ['Pay rent'] }],
  [{ action: 'upload', target: { by: 'label', name: 'Attachment' }, fileName: 'photo.png' }],
  [{ action: 'expectText', target: { by: 'text', name: 'Attached' }, text: 'image/png' }],
  [{ action: 'expectText', target: { by: 'text', name: 'Attached' }, text: 'decoded 1x1' }],
  [{ action: 'dragTo', target: { by: 'text', name: 'Card A' }, to: { by: 'role', role: 'region', name: 'Done' } }],
  [{ action: 'expectText', text: 'Dropped Card A' }],
  [{ action: 'scrollTo', target: { by: 'role', role: 'button', name: 'Back to top' } }],
  [{ action: 'click', target: { by: 'role', role: 'link', name: 'About' } }],
  [{ action: 'goBack' }],
  [{ action: 'expectText', role: 'heading', text: 'Todos' }],
  [{ action: 'goForward' }],
  [{ action: 'reload' }],
  [{ action: 'expectText', role: 'heading', text: 'About the todos' }],
];
const ORDERED_ITEMS = 18;

const planStep = (raw: Record<string, unknown>): PlanStep => stepSchema.parse({ description: `${String(raw.action)} ${JSON.stringify(raw.target ?? raw.texts ?? raw.url ?? '')}`, ...raw });

describe('the new vocabulary, compiled: replay and generated source', () => {
  let site: TodoSite;
  let browsers: BrowserPool;
  let project: PlaywrightProject | undefined;
  let check: CompiledCheck;

  /** Runs steps in a fresh session; a step with a stored locator uses it (a replay, or a grounded target). */
  async function runSteps(steps: readonly CompiledStep[]): Promise<StepResult[]> {
    const session = await browsers.openSession(createHostAllowlist(site.url, []));
    try {
      const results: StepResult[] = [];
      for (const { step, locator, toLocator } of steps) {
        const result = await runStep(session.page, step, { baseUrl: site.url, timeoutMs: STEP_TIMEOUT_MS, testValue: () => undefined, allowlist: session.allowlist, locator, toLocator });
        results.push(result);
        if (result.status === 'failed') break;
      }
      return results;
    } finally {
      await session.close();
    }
  }

  beforeAll(async () => {
    site = await startTodoSite();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    // The recorded run: what it resolved is what the check keeps.
    const planned = STEPS.map(([raw, locator]): CompiledStep => ({ step: planStep(raw), ...(locator ? { locator } : {}) }));
    const results = await runSteps(planned);
    expect(results.map((result, index) => [index + 1, result.status === 'passed' ? 'passed' : result.message])).toEqual(planned.map((_, index) => [index + 1, 'passed']));
    check = compiledCheckSchema.parse({
      steps: planned.map(({ step }, index) => {
        const { locator, toLocator } = results[index]!;
        return { step, ...(locator ? { locator } : {}), ...(toLocator ? { toLocator } : {}) };
      }),
      successCriteria: [],
    });
  }, RUN_TIMEOUT_MS);
  afterAll(async () => {
    await project?.remove();
    await browsers?.close();
    await site?.close();
  });

  /** The check with the ordered list's texts swapped: it cannot hold. */
  const misordered = (): CompiledCheck => ({
    ...check,
    steps: check.steps.map((compiled, index) =>
      index === ORDERED_ITEMS && compiled.step.action === 'expectItems' ? { ...compiled, step: { ...compiled.step, texts: ['Pay rent', 'Buy oat milk'] } } : compiled,
    ),
  });

  it('keeps the drag\'s drop target and the grounded locators in the compiled check', () => {
    const drag = check.steps.find(({ step }) => step.action === 'dragTo')!;
    expect(drag).toMatchObject({ locator: { strategy: 'text', name: 'Card A' }, toLocator: { strategy: 'role', role: 'region', name: 'Done' } });
    expect(check.steps[8]!.locator).toEqual(nameless('checkbox', { scope: { role: 'listitem', text: 'Pay rent' } }));
  });

  it('replays with the stored locators alone; the misordered list fails with the expected texts against the items', async () => {
    const replayed = await runSteps(check.steps);
    expect(replayed.map((result) => result.status)).toEqual(check.steps.map(() => 'passed'));
    const failed = await runSteps(misordered().steps);
    expect(failed).toHaveLength(ORDERED_ITEMS + 1);
    expect(failed.at(-1)).toMatchObject({
      status: 'failed',
      kind: 'assertion_failed',
      comparison: { expected: '"Pay rent", "Buy oat milk", only these, in this order', actual: ['Buy oat milk', 'Pay rent'] },
    });
  }, RUN_TIMEOUT_MS);

  it('passes as generated source under playwright test, and the misordered list fails it at the same step', async () => {
    const source = (name: string, compiled: CompiledCheck) => generatePlaywrightSource({ name, check: compiled, baseUrl: site.url, stepTimeoutMs: STEP_TIMEOUT_MS, testValueSecretRefs: {}, evidenceProbeRefs: {} });
    project = await createPlaywrightProject({ 'todos.spec.ts': source('Todos', check) });
    const passing = await project.run({});
    expect(passing).toMatchObject({ code: 0, stats: { expected: 1, unexpected: 0, skipped: 0 } });
    await project.remove();

    const wrong = source('Todos misordered', misordered());
    project = await createPlaywrightProject({ 'todos.spec.ts': wrong });
    const failing = await project.run({});
    expect(failing).toMatchObject({ code: 1, stats: { expected: 0, unexpected: 1 } });
    expect(failing.output).toContain('The items show ["Pay rent","Buy oat milk"], only these, in this order');
    expect(failing.output).toMatch(/^\s*- {3}"Pay rent",$/m);
    expect(failing.output).toMatch(/^\s*\+ {3}"Pay rent",$/m);
    // The stack points at the step's expectItems call, after its numbered comment and the container's check.
    const lines = wrong.split('\n');
    const stepLine = lines.findIndex((line) => line.trim().startsWith(`// ${ORDERED_ITEMS + 1}. expectItems`)) + 3;
    expect(lines[stepLine - 1]!.trim()).toMatch(/^await expectItems\(/);
    expect(failing.output).toContain(`todos.spec.ts:${stepLine}:`);
  }, RUN_TIMEOUT_MS);
});
