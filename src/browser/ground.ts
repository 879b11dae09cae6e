/**
 * Resolves a target on the live page from its accessibility snapshot (Playwright's AI mode, with refs): the element
 * the person's words mean (src/core/grounding.ts decides), then the locator a replay and the generated source will
 * use for it. Refs are valid for one snapshot only, so a check never keeps one: it keeps the plainest locator that
 * finds exactly that element — its role and name, else the same inside its row (`scope`), else its position (`nth`).
 */
import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import { flattenSnapshot, groundTarget, rowLabel, rowOf, type GroundingResult, type GroundNode, type SnapshotNode } from '../core/grounding.js';
import type { PlanStep, Target } from '../core/plan.js';
import { locatorOf } from './locate.js';

export type Grounded =
  | { found: true; locator: ResolvedLocator; element: Locator; how: string }
  | { found: false; reason: 'none' | 'several'; message: string; candidates: string[] };

const POLL_MS = 100;
/** How long several matches may persist before the target counts as ambiguous (a page may still be rendering). */
const AMBIGUITY_SETTLE_MS = 750;

/** Takes snapshots until the target means exactly one element or the time is up. */
export async function groundOnPage(page: Page, action: PlanStep['action'], target: Target, timeoutMs: number, options: { strict?: boolean } = {}): Promise<Grounded> {
  const deadline = Date.now() + timeoutMs;
  let severalSince: number | undefined;
  for (;;) {
    const result = await groundOnce(page, action, target, options.strict === true);
    if (result.kind === 'one') {
      const located = await locatorFor(page, result, target);
      if (located !== undefined) return { found: true, ...located, how: result.how };
    }
    const now = Date.now();
    if (result.kind === 'several') severalSince ??= now;
    else severalSince = undefined;
    const settled = severalSince !== undefined && now - severalSince >= AMBIGUITY_SETTLE_MS;
    if (settled || now >= deadline) {
      if (result.kind === 'one') return { found: false, reason: 'none', message: `Found ${result.node.role} ${JSON.stringify(result.node.name)} but no locator that finds it alone`, candidates: [] };
      return { found: false, reason: result.kind, message: result.message, candidates: result.candidates };
    }
    await page.waitForTimeout(POLL_MS);
  }
}

async function groundOnce(page: Page, action: PlanStep['action'], target: Target, strict: boolean): Promise<GroundingResult> {
  const nodes = await readSnapshot(page);
  return nodes === undefined ? CHANGED : groundTarget(nodes, action, target, { strict });
}

/**
 * The first of `targets` that one snapshot of the page resolves to one element (one snapshot for all of them: a
 * resolver's fallbacks, tried in order); otherwise the first target's refusal.
 */
export async function groundFirstOf(page: Page, action: PlanStep['action'], targets: readonly Target[], options: { strict?: boolean } = {}): Promise<Grounded> {
  const nodes = await readSnapshot(page);
  let first: GroundingResult | undefined;
  for (const target of targets) {
    const result = nodes === undefined ? CHANGED : groundTarget(nodes, action, target, { strict: options.strict === true });
    first ??= result;
    if (result.kind !== 'one') continue;
    const located = await locatorFor(page, result, target);
    if (located !== undefined) return { found: true, ...located, how: result.how };
  }
  if (first === undefined || first.kind === 'one') return { found: false, reason: 'none', message: 'Nothing on the page is found alone by a locator', candidates: [] };
  return { found: false, reason: first.kind, message: first.message, candidates: first.candidates };
}

const CHANGED: GroundingResult = { kind: 'none', candidates: [], message: 'The page changed while it was read' };

/** The page's AI-mode accessibility snapshot, flattened; undefined when the page changed under the read. */
async function readSnapshot(page: Page): Promise<GroundNode[] | undefined> {
  try {
    const tree: unknown = await page.ariaSnapshotJSON({ mode: 'ai' });
    return flattenSnapshot(Array.isArray(tree) ? (tree as SnapshotNode[]) : [tree as SnapshotNode]);
  } catch {
    return undefined;
  }
}

/**
 * The stored locator for one element of a snapshot just read (chosen by its ref elsewhere: a model's answer), found
 * as a grounded element is: its role and name, else inside its row, else its place among its kind.
 */
export async function locateNode(page: Page, nodes: readonly GroundNode[], node: GroundNode): Promise<{ locator: ResolvedLocator; element: Locator } | undefined> {
  const target: Target = node.role === 'text' ? { by: 'text', name: node.name, exact: true } : { by: 'role', role: node.role, name: node.name, exact: node.name !== '' };
  return locatorFor(page, { kind: 'one', node, nodes, how: 'chosen by its ref' }, target);
}

/** The plainest stored locator that finds the grounded element alone (and is that element). */
async function locatorFor(page: Page, result: Extract<GroundingResult, { kind: 'one' }>, target: Target): Promise<{ locator: ResolvedLocator; element: Locator } | undefined> {
  const { node, nodes } = result;
  const own: ResolvedLocator = node.role === 'text' ? { strategy: 'text', name: node.name, exact: true } : { strategy: 'role', role: node.role, name: node.name, exact: node.name !== '' };
  const attempts: ResolvedLocator[] = [];
  // Its own name first, unless the task told it apart by its row or place and its name does not say which ("Add to
  // cart" in every card; "Add Desk Lamp to cart" says the row itself).
  const says = target.within === undefined || node.name.toLowerCase().includes(target.within.text.toLowerCase().trim());
  if (node.name !== '' && says && target.nth === undefined) attempts.push(own);
  const row = result.container ?? rowOf(nodes, node);
  const rowText = row === undefined ? undefined : rowTextOf(nodes, row, node, target);
  // A row of its own role ("generic" is what a plain div is to the snapshot: not a role to look up by).
  if (row !== undefined && rowText !== undefined && row !== node && row.role !== 'generic') attempts.push({ ...own, scope: { role: row.role, text: rowText } });
  if (node.name !== '' && !attempts.includes(own)) attempts.push(own);
  const wanted = node.ref === undefined ? undefined : page.getByRef(node.ref);
  for (const attempt of attempts) {
    const element = locatorOf(page, attempt).filter({ visible: true });
    if ((await element.count().catch(() => 0)) !== 1) continue;
    if (wanted !== undefined && !(await sameElement(element, wanted))) continue;
    return { locator: attempt, element: element.first() };
  }
  // Several alike and nothing around them to tell them apart: its place in page order, as the task said or as found.
  if (wanted === undefined) return undefined;
  const base = own;
  const all = locatorOf(page, base).filter({ visible: true });
  const count = await all.count().catch(() => 0);
  for (let index = 0; index < count && index < 200; index += 1) {
    if (await sameElement(all.nth(index), wanted)) {
      const nth = index === count - 1 && target.nth === -1 ? -1 : index;
      return { locator: { ...base, nth }, element: all.nth(index) };
    }
  }
  return undefined;
}

/** The text a row is known by: the container the task named, else the row's own label. */
function rowTextOf(nodes: readonly GroundNode[], row: GroundNode, node: GroundNode, target: Target): string | undefined {
  if (target.within !== undefined) {
    const exact = nodes.find((child) => child.role === 'text' && child.ancestors.includes(row.index) && child.name.toLowerCase() === target.within!.text.toLowerCase().trim());
    if (exact !== undefined) return exact.name;
  }
  return rowLabel(nodes, row, node);
}

async function sameElement(candidate: Locator, wanted: Locator): Promise<boolean> {
  try {
    const handle = await wanted.elementHandle({ timeout: 1_000 });
    if (handle === null) return false;
    try {
      return await candidate.evaluate((element, other) => element === other, handle, { timeout: 1_000 });
    } finally {
      await handle.dispose();
    }
  } catch {
    return false;
  }
}
