/**
 * "X is gone" holds only for an X the run saw. Looked up at the end alone, a target that never was on the page (a
 * name the page never used, a misread phrase) is "hidden" as well, and the check would pass on any app, a broken one
 * included. So a run watches the targets its later "hidden" expectations name: after each step, each of them that is
 * visible then is marked seen for the page (the run's page); an expectation of one never seen fails as
 * `step_unresolvable` (./expectations.ts). A replay watches the same way, so it refuses what the run refused.
 * Only targets found by plain locators are watched (role, label, text, placeholder, alt, title, test id); an element
 * named by what it is ("the cart badge") is anchored by hint grounding's memory instead (./hint-grounding.ts).
 */
import type { Page } from 'playwright';
import type { PlanStep, Target } from '../core/plan.js';
import { candidatesFor, locatorOf } from './locate.js';

interface Watch {
  /** Plan index of each "hidden" expectation still ahead, with its target. */
  pending: Array<{ index: number; target: Target }>;
  /** Keys of targets seen visible after some step. */
  seen: Set<string>;
}

const watches = new WeakMap<Page, Watch>();

export function targetKey(target: Target): string {
  return JSON.stringify([target.by, target.role ?? '', target.name.toLowerCase(), target.exact, target.within?.text.toLowerCase() ?? '', target.nth ?? 0]);
}

/** Whether the watch can tell this target was seen: a plain locator finds it (no description, no hints). */
export function watchable(target: Target): boolean {
  return target.by !== 'description';
}

/** Starts watching the targets of the plan's "hidden" expectations on `page` (the run's page, one run a page). */
export function watchGoneTargets(page: Page, steps: readonly PlanStep[]): void {
  const pending = steps.flatMap((step, index) => (step.action === 'expectState' && step.state === 'hidden' && watchable(step.target) ? [{ index, target: step.target }] : []));
  watches.set(page, { pending, seen: new Set() });
}

/**
 * After step `index` passed (-1 and no step: the page as the run starts on it): marks each watched target of a later expectation that the step itself found (it acted on
 * it, waited for it, or saw its text: a "Loading…" may be gone again a moment later) or that is visible now. No waiting.
 */
export async function observeGoneTargets(page: Page, index: number, step?: PlanStep): Promise<void> {
  const watch = watches.get(page);
  if (watch === undefined) return;
  for (const entry of watch.pending) {
    if (entry.index <= index) continue;
    const key = targetKey(entry.target);
    if (watch.seen.has(key)) continue;
    if (step !== undefined && foundBy(step, entry.target)) {
      watch.seen.add(key);
      continue;
    }
    for (const locator of candidatesFor('expectState', entry.target)) {
      const visible = await locatorOf(page, locator).filter({ visible: true }).count().catch(() => 0);
      if (visible > 0) {
        watch.seen.add(key);
        break;
      }
    }
  }
}

function foundBy(step: PlanStep, target: Target): boolean {
  if (step.action.startsWith('expect') && 'state' in step && step.state === 'hidden') return false;
  if ('target' in step && step.target !== undefined && targetKey(step.target) === targetKey(target)) return true;
  return target.by === 'text' && target.within === undefined && step.action === 'expectText' && step.target === undefined && [step.text, ...(step.orText ?? [])].some((text) => sameText(text, target));
}

function sameText(shown: string, target: Target): boolean {
  const a = shown.trim().toLowerCase();
  const b = target.name.trim().toLowerCase();
  return target.exact ? a === b : a.includes(b);
}

/**
 * Whether a "hidden" expectation of `target` may be judged: the run saw it after an earlier step, or nobody watched
 * (a step run alone, outside a plan's run).
 */
export function seenBeforeGone(page: Page, target: Target): boolean {
  const watch = watches.get(page);
  if (watch === undefined || !watchable(target)) return true;
  return watch.seen.has(targetKey(target));
}
