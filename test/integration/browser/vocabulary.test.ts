/**
 * The steps people's tests use, in real Chromium on a small todo app (test/support/todo-site.ts): double-click to
 * edit, hover to reveal, clear, scroll, drag, upload, reload, back and forward; selected, unselected and focused;
 * list items in order and with nothing else; and stored locators that pick a nameless element by its row
 * (`scope`) or its position (`nth`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { runStepWithHealing } from '../../../src/browser/heal.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepContext, type StepResult } from '../../../src/browser/step-runner.js';
import type { ResolvedLocator } from '../../../src/core/check.js';
import { stepSchema, type PlanStep } from '../../../src/core/plan.js';
import { uploadFileFor } from '../../../src/core/upload-file.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startTodoSite, type TodoSite } from '../../support/todo-site.js';

const step = (raw: Record<string, unknown>): PlanStep => stepSchema.parse({ description: String(raw.action), ...raw });
const role = (name: string, roleName: string, extra: Partial<ResolvedLocator> = {}): ResolvedLocator => ({ strategy: 'role', role: roleName, name, exact: false, ...extra });
const checkbox = (extra: Partial<ResolvedLocator>): ResolvedLocator => role('', 'checkbox', extra);

describe('the new step vocabulary in Chromium', () => {
  let site: TodoSite;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    site = await startTodoSite();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
    await site.close();
  });
  beforeEach(async () => {
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(site.url, []));
    await session.page.goto(site.url, { waitUntil: 'load' });
  });

  const context = (overrides: Partial<StepContext> = {}): StepContext => ({
    baseUrl: site.url,
    timeoutMs: 1_500,
    testValue: () => undefined,
    allowlist: session.allowlist,
    ...overrides,
  });
  const run = (raw: Record<string, unknown>, overrides: Partial<StepContext> = {}): Promise<StepResult> => runStep(session.page, step(raw), context(overrides));
  /** Runs each step; all must pass. */
  async function runAll(...steps: Array<Record<string, unknown> | [Record<string, unknown>, Partial<StepContext>]>): Promise<StepResult[]> {
    const results: StepResult[] = [];
    for (const entry of steps) {
      const [raw, overrides] = Array.isArray(entry) ? entry : [entry, {}];
      const result = await run(raw, overrides);
      expect({ step: raw.action, result }).toEqual({ step: raw.action, result: expect.objectContaining({ status: 'passed' }) });
      results.push(result);
    }
    return results;
  }
  const items = (texts: string[], extra: Record<string, unknown> = {}) => ({
    action: 'expectItems',
    target: { by: 'role', role: 'list', name: 'Tasks' },
    texts,
    ...extra,
  });

  it('double-clicks a label to edit it: the edit field has the focus, clears, and the list shows the new text', async () => {
    const [edit] = await runAll(
      { action: 'dblclick', target: { by: 'text', name: 'Buy milk' } },
      { action: 'expectState', target: { by: 'label', name: 'Edit task' }, state: 'focused' },
      { action: 'clear', target: { by: 'label', name: 'Edit task' } },
      { action: 'expectValue', target: { by: 'label', name: 'Edit task' }, text: '' },
      { action: 'fill', target: { by: 'label', name: 'Edit task' }, value: { kind: 'literal', text: 'Buy oat milk' } },
      { action: 'press', target: { by: 'label', name: 'Edit task' }, key: 'Enter' },
      items(['Buy oat milk', 'Pay rent', 'Call Ada'], { only: true, ordered: true }),
    );
    expect(edit!.locator).toEqual({ strategy: 'text', name: 'Buy milk', exact: false });
  });

  it('fails a focus expectation on a field that does not have it, saying so', async () => {
    const result = await run({ action: 'expectState', target: { by: 'label', name: 'New item' }, state: 'focused' });
    expect(result).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: '"New item" is not focused', comparison: { expected: 'focused', actual: ['not focused'] } });
    await runAll({ action: 'click', target: { by: 'label', name: 'New item' } }, { action: 'expectState', target: { by: 'label', name: 'New item' }, state: 'focused' });
  });

  it('reveals a hover-only Delete button by hovering its row, and clicks the one in that row (scope)', async () => {
    const deleteOfAda = role('Delete', 'button', { exact: true, scope: { role: 'listitem', text: 'Call Ada' } });
    const click = { action: 'click', target: { by: 'role', role: 'button', name: 'Delete', within: { text: 'Call Ada' } } };
    // Not hovered, the button is not visible: nothing to click.
    expect(await run(click, { locator: deleteOfAda })).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: expect.stringContaining('in the listitem with "Call Ada"') });
    await runAll(
      { action: 'hover', target: { by: 'text', name: 'Call Ada' } },
      [click, { locator: deleteOfAda }],
      items(['Buy milk', 'Pay rent'], { only: true, ordered: true }),
    );
  });

  it('ticks nameless checkboxes by their row and by their position, and reads them back the same way', async () => {
    await runAll(
      [{ action: 'check', target: { by: 'role', role: 'checkbox', name: '', within: { text: 'Pay rent' } } }, { locator: checkbox({ scope: { role: 'listitem', text: 'Pay rent' } }) }],
      [{ action: 'expectState', target: { by: 'role', role: 'checkbox', name: '', nth: 2 }, state: 'checked' }, { locator: checkbox({ nth: 1 }) }],
      [{ action: 'expectState', target: { by: 'role', role: 'checkbox', name: '', nth: 1 }, state: 'unchecked' }, { locator: checkbox({ nth: 0 }) }],
      [{ action: 'check', target: { by: 'role', role: 'checkbox', name: '', nth: -1 } }, { locator: checkbox({ nth: -1 }) }],
      [{ action: 'expectState', target: { by: 'role', role: 'checkbox', name: '', within: { text: 'Call Ada' } }, state: 'checked' }, { locator: checkbox({ scope: { role: 'listitem', text: 'Call Ada' } }) }],
    );
    // A nameless locator without a row or position matches all three: the stored target is not one element.
    const all = await run({ action: 'check', target: { by: 'role', role: 'checkbox', name: '' } }, { locator: checkbox({}) });
    expect(all).toMatchObject({ status: 'failed', kind: 'step_unresolvable', message: 'The stored target (role checkbox) matches 3 elements now, not one' });
  });

  it('reads selected and unselected from aria-selected, a "selected" class and a checked radio', async () => {
    await runAll(
      { action: 'expectState', target: { by: 'role', role: 'tab', name: 'Today' }, state: 'selected' },
      { action: 'expectState', target: { by: 'role', role: 'tab', name: 'Later' }, state: 'unselected' },
      { action: 'expectState', target: { by: 'role', role: 'link', name: 'All' }, state: 'selected' },
      { action: 'expectState', target: { by: 'label', name: 'Large' }, state: 'selected' },
      { action: 'expectState', target: { by: 'label', name: 'Small' }, state: 'unselected' },
      { action: 'click', target: { by: 'role', role: 'tab', name: 'Later' } },
      { action: 'expectState', target: { by: 'role', role: 'tab', name: 'Later' }, state: 'selected' },
      [{ action: 'check', target: { by: 'role', role: 'checkbox', name: '', within: { text: 'Pay rent' } } }, { locator: checkbox({ scope: { role: 'listitem', text: 'Pay rent' } }) }],
      { action: 'click', target: { by: 'role', role: 'link', name: 'Completed' } },
      { action: 'expectState', target: { by: 'role', role: 'link', name: 'Completed' }, state: 'selected' },
      { action: 'expectState', target: { by: 'role', role: 'link', name: 'All' }, state: 'unselected' },
      // Hidden rows are not items: only the completed one is shown.
      items(['Pay rent'], { only: true }),
    );
    const stale = await run({ action: 'expectState', target: { by: 'role', role: 'tab', name: 'Today' }, state: 'selected' });
    expect(stale).toMatchObject({ status: 'failed', kind: 'assertion_failed', message: '"Today" is not selected', comparison: { expected: 'selected', actual: ['unselected'] } });
  });

  it('checks list items anywhere in any order, and fails order, extra and missing items with what the list shows', async () => {
    await runAll(
      items(['call ada', 'BUY   milk']),
      { action: 'expectItems', texts: ['Pay rent'] },
      items(['Buy milk', 'Call Ada'], { ordered: true }),
    );
    const shown = ['Buy milk', 'Pay rent', 'Call Ada'];
    expect(await run(items(['Pay rent', 'Buy milk'], { ordered: true }))).toMatchObject({
      status: 'failed',
      kind: 'assertion_failed',
      message: 'The items in "Tasks" do not show "Pay rent", "Buy milk", in this order: the items are not in the expected order',
      comparison: { expected: '"Pay rent", "Buy milk", in this order', actual: shown },
    });
    expect(await run(items(['Buy milk', 'Pay rent'], { only: true }))).toMatchObject({
      status: 'failed',
      message: 'The items in "Tasks" do not show "Buy milk", "Pay rent", only these: 1 other item is shown: "Call Ada"',
      comparison: { expected: '"Buy milk", "Pay rent", only these', actual: shown },
    });
    expect(await run(items(['Walk the dog', 'Buy milk']))).toMatchObject({
      status: 'failed',
      message: 'The items in "Tasks" do not show "Walk the dog", "Buy milk": no item shows "Walk the dog"',
      comparison: { expected: '"Walk the dog", "Buy milk"', actual: shown },
    });
    expect(await run({ action: 'expectItems', itemRole: 'row', texts: ['Ada'] })).toMatchObject({
      status: 'failed',
      message: 'The rows do not show "Ada": no row is shown',
      comparison: { expected: '"Ada"', actual: [] },
    });
  });

  it('uploads a small valid file made from its name: an image the page decodes, a PDF, a CSV', async () => {
    const attached = (text: string) => ({ action: 'expectText', target: { by: 'text', name: 'Attached' }, text });
    const upload = (fileName: string) => ({ action: 'upload', target: { by: 'label', name: 'Attachment' }, fileName });
    const [first] = await runAll(
      upload('photo.png'),
      attached(`Attached photo.png (image/png, ${uploadFileFor('photo.png').buffer.length} bytes, starts 89504e47, decoded 1x1)`),
      upload('photo.jpg'),
      attached(`Attached photo.jpg (image/jpeg, ${uploadFileFor('photo.jpg').buffer.length} bytes, starts ffd8ffe0, decoded 1x1)`),
      upload('anim.gif'),
      attached('decoded 1x1'),
      upload('Report (final).pdf'),
      attached('Attached Report (final).pdf (application/pdf, '),
      attached('starts 25504446'),
      upload('items.csv'),
      attached(`Attached items.csv (text/csv, ${uploadFileFor('items.csv').buffer.length} bytes`),
    );
    expect(first!.locator).toEqual({ strategy: 'label', name: 'Attachment', exact: false });
  });

  it('drags a card onto the drop zone, resolving both targets and storing the drop target as toLocator', async () => {
    const drag = { action: 'dragTo', target: { by: 'text', name: 'Card A' }, to: { by: 'role', role: 'region', name: 'Done' } };
    const [dragged] = await runAll(drag, { action: 'expectText', text: 'Dropped Card A' });
    expect(dragged).toEqual({ status: 'passed', locator: { strategy: 'text', name: 'Card A', exact: false }, toLocator: role('Done', 'region') });
    // A replay with the stored locators, on a fresh page.
    await session.page.goto(site.url, { waitUntil: 'load' });
    const replayed = await run(drag, { locator: dragged!.locator!, toLocator: dragged!.toLocator! });
    expect(replayed).toEqual(dragged);
    await runAll({ action: 'expectText', text: 'Dropped Card A' });
    // A drop target that is gone fails as unresolvable, naming it.
    await session.page.goto(site.url, { waitUntil: 'load' });
    expect(await run(drag, { locator: dragged!.locator!, toLocator: role('Finished', 'region') })).toMatchObject({
      status: 'failed',
      kind: 'step_unresolvable',
      message: 'The stored target (role region named "Finished") matches 0 elements now, not one',
      toLocator: role('Finished', 'region'),
    });
  });

  it('records both targets of a drag, and heals a drop target that was renamed', async () => {
    const drag = step({ action: 'dragTo', target: { by: 'text', name: 'Card A' }, to: { by: 'role', role: 'region', name: 'Done' } });
    const storable = () => true;
    const recorded = await runStepWithHealing(session.page, { step: drag }, context(), { record: true, storable });
    expect(recorded).toMatchObject({ status: 'passed', healing: { element: { text: 'Card A' } }, toHealing: { element: { role: 'region', name: 'Done' } } });
    await session.page.goto(site.url, { waitUntil: 'load' });
    // A stored drop-target locator that finds nothing now (the zone's name changed since); its record still fits it.
    const stale = role('Done (old)', 'region', { exact: true });
    const compiled = { step: drag, locator: recorded.locator!, healing: recorded.healing!, toLocator: stale, toHealing: recorded.toHealing! };
    const healed = await runStepWithHealing(session.page, compiled, context({ locator: compiled.locator, toLocator: stale }), { record: false, storable });
    expect(healed).toMatchObject({
      status: 'passed',
      locator: recorded.locator,
      toLocator: { strategy: 'role', role: 'region', name: 'Done', exact: true },
      healed: { from: stale, to: { strategy: 'role', role: 'region', name: 'Done', exact: true }, which: 'to' },
    });
    await runAll({ action: 'expectText', text: 'Dropped Card A' });
  });

  it('scrolls the footer into view', async () => {
    const scrollY = () => session.page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    expect(await scrollY()).toBe(0);
    await runAll({ action: 'scrollTo', target: { by: 'role', role: 'contentinfo', name: '' } });
    expect(await scrollY()).toBeGreaterThan(1_000);
  });

  it('reloads, goes back and forward, and fails going forward past the last page', async () => {
    const before = site.loads();
    await runAll(
      { action: 'fill', target: { by: 'label', name: 'New item' }, value: { kind: 'literal', text: 'typed' } },
      { action: 'reload' },
      { action: 'expectValue', target: { by: 'label', name: 'New item' }, text: '' },
      { action: 'click', target: { by: 'role', role: 'link', name: 'About' } },
      { action: 'expectUrl', contains: '/about' },
      { action: 'goBack' },
      { action: 'expectText', role: 'heading', text: 'Todos' },
      { action: 'goForward' },
      { action: 'expectText', role: 'heading', text: 'About the todos' },
    );
    expect(site.loads() - before).toBe(2); // the reload, and back to the todo page
    expect(await run({ action: 'goForward' })).toMatchObject({
      status: 'failed',
      kind: 'navigation_failed',
      message: `Could not go forward: there is no page after ${site.url}/about in this tab's history`,
    });
  });

  it('checks what the page keeps in local storage, and fails with what it holds when that is not it', async () => {
    const storage = { action: 'expectStorage', key: 'tasks', texts: ['Buy milk'], count: 2, where: 'done' };
    // Nothing stored yet: the step fails (it does not pass by doing nothing).
    expect(await run(storage)).toMatchObject({
      status: 'failed',
      kind: 'assertion_failed',
      comparison: { expected: 'local storage "tasks" holds "Buy milk", 2 entries with done', actual: ['0 lists stored', 'tasks: (nothing)'] },
    });
    await session.page.evaluate(() => {
      const stored = [{ title: 'Buy milk', done: true }, { title: 'Pay rent', done: true }, { title: 'Call Ada', done: false }];
      (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem('tasks', JSON.stringify(stored));
    });
    await runAll(storage, { action: 'expectStorage', texts: ['Call Ada'], count: 3 });
    expect(await run({ ...storage, count: 3 })).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { actual: expect.arrayContaining(['2 entries with done']) } });
  });

  it('counts the items of "the list" with no name: the list that is not a menu of links', async () => {
    await session.page.setContent(
      '<ul><li><a href="#/">All</a></li><li><a href="#/done">Done</a></li></ul>' +
        '<ul><li><input type="checkbox" aria-label="Toggle"> Water plants</li><li><input type="checkbox" aria-label="Toggle"> Call Ada</li></ul>',
    );
    const count = { action: 'expectCount', target: { by: 'role', role: 'list', name: '' }, itemRole: 'listitem' };
    const [counted] = await runAll({ ...count, count: 2 });
    // The list found on the page is what a replay looks at: the plainest locator that finds it alone.
    expect(counted!.locator).toMatchObject({ strategy: 'role', role: 'list' });
    expect(await run({ ...count, count: 3 })).toMatchObject({ status: 'failed', kind: 'assertion_failed', comparison: { expected: '3 items', actual: [expect.stringContaining('2 items')] } });
  });

  it('stops a double-click on a control that names a side effect no answer allowed, as it stops a click', async () => {
    const sideEffects = { kindsNamedBy: (label: string) => (/delete/i.test(label) ? ['delete'] : []), allowed: [] };
    const blocked = await run({ action: 'dblclick', target: { by: 'role', role: 'button', name: 'Delete everything' } }, { sideEffects });
    expect(blocked).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('Stopped before acting on "Delete everything"') });
    await runAll([{ action: 'dblclick', target: { by: 'text', name: 'Pay rent' } }, { sideEffects }]);
  });
});
