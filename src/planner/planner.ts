import type { Interpretation } from '../core/interpretation.js';

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
}
