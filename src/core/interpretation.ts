/**
 * What a planner makes of a natural-language task before anything runs (spec 2.2 and 3), and the text format that
 * carries clarification answers into the linked child job (spec 4.2).
 */
import { ErrorCode, userError } from './errors.js';
import type { Plan } from './plan.js';

export type Interpretation = (
  /** `plan` is what the run does; `assumptions` say how the task was read where it left room. */
  | { kind: 'runnable'; task: string; assumptions: string[]; plan: Plan }
  | { kind: 'needs_clarification'; questions: string[]; ambiguities: string[]; assumptions: string[] }
) & {
  /** Calls a model-backed planner made to reach this (recorded as `planner.called` events); absent for the rule planner. */
  calls?: PlannerCall[];
};

/** One request a model-backed planner sent: what it cost and how it ended. Never holds prompt or answer text. */
export interface PlannerCall {
  model: string;
  /** 1 for the first request, 2 for the retry after a bad or truncated answer. */
  attempt: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  durationMs: number;
  /** `ok`: a valid answer; `invalid`: not JSON, not the schema, or cut off; `failed`: HTTP or network error. */
  outcome: 'ok' | 'invalid' | 'failed';
  /** Why an `invalid` or `failed` call did not count, in words safe to show the caller. */
  reason?: string;
}

/**
 * Thrown by a planner that could not produce an interpretation (a model that answered badly twice, or not at all).
 * The job service records the job as errored with `reason` and the calls, and answers 502 `planner.failed`.
 */
export class PlannerFailure extends Error {
  constructor(
    readonly reason: string,
    readonly calls: PlannerCall[],
  ) {
    super(reason);
    this.name = 'PlannerFailure';
  }
}

/** One answered `review_required` job: its questions and the answers, one per question, in question order. */
export interface ClarificationRound {
  questions: string[];
  answers: string[];
}

/**
 * Each round is appended to the task as one block:
 *
 * ```
 * <task>
 *
 * Clarifications:
 * Q1: <question>
 * A1: <answer>
 * ```
 *
 * A second line of a question or answer is indented by two spaces, so a block never holds a blank line and never
 * holds a line of its own shape; that keeps `splitClarifications` exact for any text. Note for the edges: a task
 * typed by a caller can carry a block too; reject one that does where answers must come through spec 4.2 only.
 */
const MARKER = '\n\nClarifications:\n';
const CONTINUATION = '  ';
const ENTRY = /^([QA])(\d+):(?: (.*))?$/;

/** The child job's task: `task` followed by one more block with each question and its answer, in order. */
export function taskWithAnswers(task: string, round: ClarificationRound): string {
  if (round.answers.length !== round.questions.length) {
    throw userError(
      ErrorCode.ClarificationAnswerCount,
      `Expected ${round.questions.length} answer(s), one per question in question order, got ${round.answers.length}.`,
      { details: { questions: round.questions.length, answers: round.answers.length } },
    );
  }
  const lines = round.questions.flatMap((question, i) => [
    entry(`Q${i + 1}`, question),
    entry(`A${i + 1}`, round.answers[i]),
  ]);
  return task + MARKER + lines.join('\n');
}

/** The inverse of `taskWithAnswers`, applied as often as blocks end the text: the first task and every round. */
export function splitClarifications(task: string): { original: string; rounds: ClarificationRound[] } {
  const rounds: ClarificationRound[] = [];
  let original = task;
  for (;;) {
    const at = original.lastIndexOf(MARKER);
    if (at < 0) break;
    const round = parseBlock(original.slice(at + MARKER.length));
    if (round === undefined) break;
    rounds.unshift(round);
    original = original.slice(0, at);
  }
  return { original, rounds };
}

function entry(label: string, text: string): string {
  const [first, ...rest] = text.split('\n');
  const head = first === '' ? `${label}:` : `${label}: ${first}`;
  return [head, ...rest.map((line) => CONTINUATION + line)].join('\n');
}

function parseBlock(block: string): ClarificationRound | undefined {
  const round: ClarificationRound = { questions: [], answers: [] };
  if (block === '') return round;
  let current: string[] | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith(CONTINUATION) && current !== undefined) {
      current[current.length - 1] += `\n${line.slice(CONTINUATION.length)}`;
      continue;
    }
    const match = ENTRY.exec(line);
    if (match === null) return undefined;
    const [, letter, number, text = ''] = match;
    const expected = letter === 'Q' ? round.questions.length + 1 : round.answers.length + 1;
    const inTurn = letter === 'Q' ? round.questions.length === round.answers.length : round.questions.length > round.answers.length;
    if (!inTurn || Number(number) !== expected || number !== String(expected)) return undefined;
    current = letter === 'Q' ? round.questions : round.answers;
    current.push(text);
  }
  return round.questions.length === round.answers.length ? round : undefined;
}
