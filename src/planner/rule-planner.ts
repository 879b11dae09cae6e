/**
 * The built-in planner: no network, no model. Its first duty is the clarification policy of spec 3: a task that
 * could cause a real side effect, or that is too vague to know what to check, stops with questions; answers given
 * in `Clarifications:` blocks (core/interpretation.ts) resolve them. Only then is the task planned (plan-task.ts),
 * which may ask its own questions (a clause it cannot turn into a step, a test value that is not configured).
 *
 * What answers do to the plan: an answer to the vague-task question is what gets planned; an answer that allows a
 * side effect lets its clause become a step ("place the order" → click "Place order"); an answer that declines it
 * ("no", "stop before paying") ends the plan before the first clause of that side effect.
 */
import { splitClarifications, type ClarificationRound, type Interpretation } from '../core/interpretation.js';
import { planTask } from './plan-task.js';
import type { Planner, PlannerContext } from './planner.js';
import { findSideEffects, SIDE_EFFECTS, type SideEffectHit, type SideEffectKind } from './side-effects.js';
import { describesCheck, isEvasive, VAGUE_QUESTION, vagueness } from './vagueness.js';

export const BASE_URL_ASSUMPTION = 'Runs against the given baseUrl and the hosts of networkAllowlist only.';
export const READ_ONLY_ASSUMPTION =
  'Read-only: the run does not create, change or delete stored data, upload or export data, send, invite or publish, buy, pay or transfer money, grant or revoke access, book or schedule, sign up users or submit forms.';
export const OTHER_SIDE_EFFECTS_ASSUMPTION = 'Side effects other than those answered above are avoided.';

export function createRulePlanner(): Planner {
  return {
    interpret: (task, context) => Promise.resolve(interpretTask(task, context)),
  };
}

interface Open {
  question: string;
  ambiguity: string;
  /** Where in the task the need arose: questions are asked in this order. */
  index: number;
}

/**
 * What the clarification policy decided, before any planning: the questions to ask, or what a planner may go on
 * with. Shared with model-backed planners (openai-planner.ts), so that asking first never depends on a model.
 */
export type PolicyOutcome =
  | { kind: 'questions'; interpretation: Interpretation & { kind: 'needs_clarification' } }
  | {
      kind: 'clear';
      /** What to plan: the task without its Clarifications blocks, or the answers that said what to check. */
      planned: string;
      rounds: ClarificationRound[];
      /** The side effects the task (and the answers that said what to check) asks for, all answered. */
      hits: SideEffectHit[];
      /** The side-effect kinds an answer refused, with that answer. */
      declined: Map<SideEffectKind, string>;
      /** The standard assumptions and one per answer that decided something. */
      assumptions: string[];
    };

/** The clarification policy alone: a vague task and every unanswered side effect stop with questions. */
export function clarificationPolicy(task: string, context: PlannerContext): PolicyOutcome {
  const { original, rounds } = splitClarifications(task);
  const answered: string[] = [];
  const open: Open[] = [];

  // A vague task is resolved by answers that say what to check; those answers then count as part of the task.
  // A vague task says nothing to plan either: the answers that said what to check are what gets planned.
  let scanned = original;
  let planned = original;
  const vague = vagueness(original);
  if (vague !== undefined) {
    const descriptions = answersTo(rounds, VAGUE_QUESTION).filter(describesCheck);
    planned = descriptions.join('\n');
    if (descriptions.length === 0) open.push({ question: VAGUE_QUESTION, ambiguity: withEarlier(vague, rounds, VAGUE_QUESTION), index: -1 });
    for (const description of descriptions) {
      answered.push(answeredAssumption(VAGUE_QUESTION, description));
      scanned += `\n${description}`;
    }
  }

  const hits = findSideEffects(scanned);
  const declined = new Map<SideEffectKind, string>();
  for (const rule of SIDE_EFFECTS) {
    const ofKind = hits.filter((hit) => hit.kind === rule.kind);
    if (ofKind.length === 0) continue;
    const decision = decidingAnswer(rounds, rule.question);
    if (decision !== undefined) {
      answered.push(answeredAssumption(rule.question, decision));
      if (declines(decision)) declined.set(rule.kind, decision);
      continue;
    }
    const ambiguity = `${rule.risk}: ${excerpts(ofKind)}.`;
    open.push({ question: rule.question, ambiguity: withEarlier(ambiguity, rounds, rule.question), index: ofKind[0].index });
  }

  const assumptions = [BASE_URL_ASSUMPTION, testValueAssumption(context.testValueNames), ...answered];
  if (open.length > 0) {
    open.sort((a, b) => a.index - b.index);
    return {
      kind: 'questions',
      interpretation: {
        kind: 'needs_clarification',
        questions: open.map((item) => item.question),
        ambiguities: open.map((item) => item.ambiguity),
        assumptions,
      },
    };
  }
  return { kind: 'clear', planned, rounds, hits, declined, assumptions };
}

/** The whole policy as one pure function (`createRulePlanner` wraps it). */
export function interpretTask(task: string, context: PlannerContext): Interpretation {
  const policy = clarificationPolicy(task, context);
  if (policy.kind === 'questions') return policy.interpretation;
  const { planned, rounds, hits, declined, assumptions } = policy;
  const stop = findSideEffects(planned).find((hit) => declined.has(hit.kind));
  const result = planTask({
    text: planned,
    testValueNames: context.testValueNames,
    evidenceCriteria: context.evidenceCriteria,
    stopAt: stop?.index,
    answerTo: (question) => decidingAnswer(rounds, question),
  });
  if (result.kind === 'questions') {
    return {
      kind: 'needs_clarification',
      questions: result.open.map((item) => item.question),
      ambiguities: result.open.map((item) => withEarlier(item.ambiguity, rounds, item.question)),
      assumptions,
    };
  }
  const authorised = hits.length > 0;
  const allowed = allowedKinds(hits, declined);
  const stopped = stop === undefined ? [] : [`Stops before "${shorten(stop.excerpt)}", as answered (${JSON.stringify(declined.get(stop.kind))}): nothing from there on runs.`];
  return {
    kind: 'runnable',
    task,
    assumptions: [...assumptions, authorised ? OTHER_SIDE_EFFECTS_ASSUMPTION : READ_ONLY_ASSUMPTION, ...stopped, ...result.assumptions],
    // Only side effects the answers allowed can be in the plan; a declined one ended it before its clause. The kinds
    // allowed go with it: at run time a click that names any other side effect stops the run (side-effect-guard.ts).
    plan: allowed.length > 0 ? { ...result.plan, sideEffects: true, allowedSideEffects: allowed } : result.plan,
  };
}

/** The kinds the task asks for that no answer declined, in table order. */
export function allowedKinds(hits: readonly SideEffectHit[], declined: ReadonlyMap<SideEffectKind, string>): SideEffectKind[] {
  return SIDE_EFFECTS.map((rule) => rule.kind).filter((kind) => !declined.has(kind) && hits.some((hit) => hit.kind === kind));
}

const DECLINE = /^\W*(?:no|nope|nah|never|don'?t|do not|stop|not|skip|cancel|abort|avoid|neither|none)\b|\b(?:stop (?:right |just )?(?:before|at)|do not|don'?t|must not|should not|shouldn'?t|without (?:paying|buying|ordering|sending|deleting|submitting|publishing|inviting))\b/i;

/** An answer that refuses the side effect it was asked about ("No", "no — stop before paying", "don't send it"). */
export function declines(answer: string): boolean {
  return DECLINE.test(answer.trim());
}

/** The latest answer to `question` that decides something ("not sure" does not), or undefined. */
export function decidingAnswer(rounds: ClarificationRound[], question: string): string | undefined {
  return answersTo(rounds, question).filter((answer) => !isEvasive(answer)).at(-1);
}

/** Every answer given to `question`, oldest round first. */
function answersTo(rounds: ClarificationRound[], question: string): string[] {
  return rounds.flatMap((round) =>
    round.questions.flatMap((asked, i) => (asked === question ? [round.answers[i] ?? ''] : [])),
  );
}

function withEarlier(ambiguity: string, rounds: ClarificationRound[], question: string): string {
  const earlier = answersTo(rounds, question).at(-1);
  return earlier === undefined ? ambiguity : `${ambiguity} The earlier answer ${JSON.stringify(earlier)} does not decide it.`;
}

export function answeredAssumption(question: string, answer: string): string {
  return `Answered ${JSON.stringify(answer)} to ${JSON.stringify(question)}`;
}

function excerpts(hits: SideEffectHit[]): string {
  const unique = [...new Set(hits.map((hit) => shorten(hit.excerpt)))];
  return unique.map((excerpt) => JSON.stringify(excerpt)).join(', ');
}

export function shorten(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 117)}…`;
}

function testValueAssumption(names: string[]): string {
  return names.length === 0
    ? 'No test values are configured, so the run uses no stored credentials or inputs.'
    : `Uses the configured test values (${names.join(', ')}) where the task needs credentials or inputs; their values are never shown.`;
}
