/**
 * The port between a run and a model that resolves a step on the live page (issue 25: the model planner gets the
 * page too). The run asks only when the rule grounding could not resolve a target of a step that acts; the page
 * crosses this port as data (a bounded, masked text: src/core/page-snapshot.ts), never as a browser object, and what
 * comes back is one element of that snapshot by its ref. The run then acts on it with the step as planned, behind
 * the same side-effect guard and allowlist as any step, and compiles the exact locator it found, so a replay never
 * asks a model.
 */
import type { PlannerCall } from './interpretation.js';
import type { PlanStep } from './plan.js';

/** The live page as a planner may see it. */
export interface PageView {
  url: string;
  title: string;
  /** The AI-mode accessibility snapshot as text: bounded, field values hidden, secrets masked. */
  snapshot: string;
  /** The snapshot was cut to its bound. */
  truncated: boolean;
}

export interface PageStepQuestion {
  /** The step as planned; only its target (or a drag's `to`) is open. */
  step: PlanStep;
  /** Which of the step's targets to find. */
  which: 'target' | 'to';
  /** Why the rule grounding found no single element, with what the page offers. */
  failure: string;
  page: PageView;
}

export type PageStepAnswer =
  /** The element of the snapshot the step acts on (`e12`), and why, in the model's words. */
  | { kind: 'element'; ref: string; reason: string }
  /** No element: the model found none, proposed a step the task did not say, could not be reached, or the run's bound is spent. */
  | { kind: 'refused'; reason: string };

/** One run's questions to the model, and what they cost. */
export interface PageStepSession {
  resolve(question: PageStepQuestion): Promise<PageStepAnswer>;
  /** The model calls made since the last take (the run records them as `planner.called` events of the step). */
  takeCalls(): PlannerCall[];
}

/** What a run tells the planner when it opens a session. */
export interface PageStepContext {
  /** The job's task, secrets masked. */
  task: string;
  /** Semantic names of the configured test values (never their values). */
  testValueNames: string[];
}
