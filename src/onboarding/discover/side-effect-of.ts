/**
 * The one place discovery asks the clarification policy what a task would change. The policy is being reworked into
 * classes (issue 28); this function is what to repoint, and its answer is the class of the task's first real side
 * effect, or null when the task only reads, navigates or fills a form without sending it.
 */
import { findSideEffects } from '../../planner/side-effects.js';

export function sideEffectOf(task: string): string | null {
  return findSideEffects(task)[0]?.kind ?? null;
}
