/** What one clause of a task adds to a plan, and what a clause reader may know while it reads. */
import type { PlanStep, SuccessCriterion } from '../core/plan.js';

export type Reading =
  /** Assertion steps name their criterion in `criteria` by key; the plan builder keeps keys unique. */
  | {
      kind: 'steps';
      steps: PlanStep[];
      criteria: SuccessCriterion[];
      assumptions: string[];
      items?: string[];
      /** The one item the clause spoke of ("only it is completed" checks every item, but is about "it"). */
      subject?: string;
      /** The clause completes the plan's last step ("press OK" after "an alert should appear"): its steps replace it. */
      replacesLast?: boolean;
    }
  /** The clause cannot be planned without an answer. */
  | { kind: 'question'; question: string; ambiguity: string }
  /** No reader recognised the clause. */
  | { kind: 'unknown' };

export interface ReadingContext {
  /** Semantic names of the configured test values. */
  testValueNames: readonly string[];
  /** Keys of success criteria that have an evidence probe. */
  evidenceCriteria: readonly string[];
  /** The paths and URLs the plan navigates to before this clause, in order. */
  visited: readonly string[];
  /** How many steps the plan has before this clause, and the last of them. */
  stepCount: number;
  last: PlanStep | undefined;
  /** The list items the task created so far ("add the todos a, b and c"), in order: "the second todo" is b. */
  items: readonly string[];
  /** The item the task spoke of last: what "it" means. */
  lastItem: string | undefined;
  /** The last step that acted on an element (a click, a tick, a fill): "click it again", "check that it is ticked". */
  lastActed?: PlanStep;
  /** The last thing the task counted ("two Delete buttons"): what "only one is left" counts again. */
  lastCounted?: PlanStep;
  /** The task speaks of the browser's own dialogs (alert, confirm, prompt): "the alert" means one (dialog-steps.ts). */
  browserDialogs?: boolean;
  /** The latest answer that decides `question` (asked in an earlier round), if any. */
  answerTo(question: string): string | undefined;
}

export function steps(list: PlanStep[], assumptions: string[] = [], criteria: SuccessCriterion[] = []): Reading {
  return { kind: 'steps', steps: list, criteria, assumptions };
}

export function question(text: string, ambiguity: string): Reading {
  return { kind: 'question', question: text, ambiguity };
}

export const UNKNOWN: Reading = { kind: 'unknown' };
