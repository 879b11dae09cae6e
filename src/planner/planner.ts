import type { Interpretation, PlannerCall } from '../core/interpretation.js';
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
  /**
   * A model planner's names for the flows onboarding discovered (src/onboarding/discover/flow-names.ts): a name and a
   * one-sentence description each, never what a flow runs. Absent on the rule planner, whose names discovery gives.
   */
  nameFlows?(flows: FlowToName[]): Promise<FlowNaming>;
}

/** A discovered flow as a model is shown it to name: what it does and where, by the words of the page and the source. */
export interface FlowToName {
  key: string;
  /** The name discovery's rules gave it. */
  name: string;
  entryPath: string;
  steps: string[];
  controls: string[];
  sideEffect: string | null;
}

/** A model's name for one flow, by the flow's key. */
export interface FlowName {
  key: string;
  name: string;
  description: string;
}

/** The model's names (a flow it did not name is absent), or why there are none; every request either way. */
export type FlowNaming = { ok: true; names: FlowName[]; calls: PlannerCall[] } | { ok: false; reason: string; calls: PlannerCall[] };
