/**
 * A target the rule grounding could not resolve, shown to the model planner with the live page (issue 25). The page
 * leaves as data: its AI-mode accessibility snapshot written as text (src/core/page-snapshot.ts: bounded, field
 * values hidden, secrets masked by the run's scrubber), with its URL and title masked too. The model answers with
 * one element of that snapshot by its ref; the run keeps the plainest locator that finds exactly that element (as
 * grounding does, src/browser/ground.ts), so the compiled check replays without a model. A link the model chose
 * that leads outside the run's allowed origins is refused before anything is clicked; the side-effect guard reads
 * the element like any other before a click or a key press acts (step-runner.ts).
 */
import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import type { FindingKind } from '../core/findings.js';
import { flattenSnapshot, type SnapshotNode } from '../core/grounding.js';
import { renderPageSnapshot } from '../core/page-snapshot.js';
import type { PageStepSession } from '../core/page-steps.js';
import type { PlanStep } from '../core/plan.js';
import { locateNode } from './ground.js';
import type { HostAllowlist } from './host-allowlist.js';
import { describeLocator } from './locate.js';
import { blockedNavigation } from './navigation-guard.js';

export interface ModelGrounding {
  session: PageStepSession;
  /** Masks the run's secret values in a text the model is shown. */
  mask(text: string): string;
  /** The snapshot's bound in characters (default MODEL_SNAPSHOT_MAX_CHARS). */
  maxChars?: number;
}

/** About 4,000 tokens: room for a busy page's controls and their rows, not for a whole catalogue. */
export const MODEL_SNAPSHOT_MAX_CHARS = 16_000;

/** Steps whose target the model is asked for: those that act. An expectation's target is never a model's choice. */
const ACTING: ReadonlySet<PlanStep['action']> = new Set(['click', 'dblclick', 'fill', 'select', 'check', 'press', 'hover', 'clear', 'scrollTo', 'dragTo', 'upload']);
/** Actions that follow a link. */
const FOLLOWING: ReadonlySet<PlanStep['action']> = new Set(['click', 'dblclick', 'press']);

export type ModelResolution =
  | { found: true; locator: ResolvedLocator; element: Locator; reason: string }
  | { found: false; kind: FindingKind; message: string };

export function asksModel(action: PlanStep['action']): boolean {
  return ACTING.has(action);
}

/** The element the model, shown the page, chose for `which` of `step`; `failure` is why the rule grounding found none. */
export async function resolveWithModel(page: Page, step: PlanStep, which: 'target' | 'to', failure: string, grounding: ModelGrounding, allowlist: HostAllowlist): Promise<ModelResolution> {
  const unresolvable = (reason: string): ModelResolution => ({ found: false, kind: 'step_unresolvable', message: `${failure}. Shown the page, ${reason}` });
  let tree: SnapshotNode[];
  try {
    const read: unknown = await page.ariaSnapshotJSON({ mode: 'ai' });
    tree = Array.isArray(read) ? (read as SnapshotNode[]) : [read as SnapshotNode];
  } catch {
    return unresolvable('the page could not be read for the model (it changed while it was read)');
  }
  const snapshot = renderPageSnapshot(tree, { maxChars: grounding.maxChars ?? MODEL_SNAPSHOT_MAX_CHARS, mask: grounding.mask });
  const title = await page.title().catch(() => '');
  const answer = await grounding.session.resolve({
    step,
    which,
    failure: grounding.mask(failure),
    page: { url: grounding.mask(page.url()), title: grounding.mask(title), snapshot: snapshot.text, truncated: snapshot.truncated },
  });
  if (answer.kind === 'refused') return unresolvable(answer.reason);

  const nodes = flattenSnapshot(tree);
  const node = nodes.find((candidate) => candidate.ref === answer.ref);
  if (node === undefined) return unresolvable(`the model chose ${answer.ref}, which the page does not have`);
  const chosen = `${node.role}${node.name === '' ? '' : ` "${node.name}"`}`;
  if (node.url !== undefined && FOLLOWING.has(step.action)) {
    const outside = blockedNavigation(absolute(node.url, page.url()), allowlist);
    if (outside !== undefined) {
      return { found: false, kind: 'navigation_blocked', message: `The model chose the ${chosen}, which leads where the run may not go; nothing was clicked. ${outside}` };
    }
  }
  const located = await locateNode(page, nodes, node);
  if (located === undefined) return unresolvable(`the model chose the ${chosen}, but no locator finds it alone`);
  return { found: true, ...located, reason: `chosen by the model (${describeLocator(located.locator)}): ${answer.reason}` };
}

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}
