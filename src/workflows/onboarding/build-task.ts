import type { DiscoveredFlow } from '../../onboarding/model.js';

/** What a catalog build of `flow` asks for, or null when there is nothing to build before its side effect. */
export interface BuildTask {
  task: string;
  stopsBeforeEffect: boolean;
}

/**
 * A flow whose side effect the repository does not allow is built up to the step before it (its steps minus the
 * last); one whose only step is the effect has nothing to build. Allowed effects, and flows without one, are built
 * whole.
 */
export function buildTaskOf(flow: DiscoveredFlow, allowedSideEffects: readonly string[]): BuildTask | null {
  if (flow.sideEffect === null || allowedSideEffects.includes(flow.sideEffect)) return { task: flow.task, stopsBeforeEffect: false };
  const before = flow.steps.slice(0, -1);
  return before.length === 0 ? null : { task: before.join(' '), stopsBeforeEffect: true };
}
