/**
 * Where a run's page has been, step by step, for a page a task names by how it was reached rather than by a name the
 * app uses: "you are back on the product list" (the page before the one just left), "its details page opens" (a page
 * other than the one the last action started on). The address is recorded after each step that passed (run-plan.ts);
 * the expectation that holds so is compiled as the address it found (./expectations.ts), so a replay and the
 * generated source check that address and need no history.
 */
import type { Page } from 'playwright';
import type { PlanStep } from '../core/plan.js';

interface Visit {
  url: string;
  /** The step acted (a click, a key, a navigation): the address before it is where that action started. */
  acting: boolean;
}

const ACTING: ReadonlySet<PlanStep['action']> = new Set(['navigate', 'click', 'dblclick', 'rightClick', 'press', 'check', 'select', 'reload', 'goBack', 'goForward', 'dragTo']);
const histories = new WeakMap<Page, Visit[]>();

/** Starts a run's history on `page`: the address it starts on. */
export function startPageHistory(page: Page): void {
  histories.set(page, [{ url: page.url(), acting: false }]);
}

/** After a step passed: where the page is now. */
export function recordPageVisit(page: Page, step: PlanStep): void {
  histories.get(page)?.push({ url: page.url(), acting: ACTING.has(step.action) });
}

/**
 * The address a `reached` page must have now, or undefined when the history cannot say: `back`, the address before
 * the last one the page left; `new` holds for any address but the one the last action started from, returned as such.
 */
export function reachedAddress(page: Page, reached: 'back' | 'new'): { is: string } | { isNot: string } | undefined {
  const visits = histories.get(page);
  if (visits === undefined || visits.length === 0) return undefined;
  const urls = visits.map((visit) => visit.url);
  if (reached === 'new') {
    const lastAction = visits.findLastIndex((visit) => visit.acting);
    if (lastAction <= 0) return undefined;
    return { isNot: urls[lastAction - 1]! };
  }
  // The distinct addresses in order; the page is on the last (or moving to it), came from the one before, and "back"
  // is the one before that.
  const distinct = urls.filter((url, index) => index === 0 || url !== urls[index - 1]);
  const current = page.url();
  const upTo = distinct.at(-1) === current ? distinct.slice(0, -1) : distinct;
  // upTo ends with the page just left; the page before it is where "back" leads.
  return upTo.length >= 2 ? { is: upTo.at(-2)! } : undefined;
}
