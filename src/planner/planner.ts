import type { Interpretation } from '../core/interpretation.js';
import type { PageStepContext, PageStepSession } from '../core/page-steps.js';

/** What a planner may know about the job besides its task. */
export interface PlannerContext {
  /** Semantic names of the configured test values (never their values); may be empty. */
  testValueNames: string[];
  /** Keys of the success criteria that have an evidence probe (the keys of `evidenceProbeRefs`); may be empty. */
  evidenceCriteria: string[];
}

/** The planner port: the rule planner is the built-in default, an OpenAI-compatible planner is chosen by config. */
export interface Planner {
  /** Reads a task (with any `Clarifications:` blocks) and returns a runnable plan or the questions to ask first. */
  interpret(task: string, context: PlannerContext): Promise<Interpretation>;
  /**
   * A model planner's questions about the live page for one natural-language run: a target the rule grounding could
   * not resolve is shown to the model with the page (src/core/page-steps.ts). Absent on the rule planner, whose
   * grounding is the runner's own (src/core/grounding.ts).
   */
  openPageSteps?(context: PageStepContext): PageStepSession;
}
