/**
 * The OpenAI-compatible planner (`PLANNER=openai`): a chat-completions model with structured output writes the plan
 * or the questions; everything around the model stays deterministic.
 *
 * - Before the model: the rule planner's clarification policy. A vague task or an unanswered side effect gets its
 *   questions without a request, so asking first never depends on a model.
 * - The model sees names only (openai-prompt.ts): the task, test value names and evidence criterion keys. Planning
 *   happens when a job is created, before any browser exists, so there is no page yet and no accessibility snapshot
 *   or probe result to show it; the Planner port can take a snapshot once planning moves next to a live page.
 * - Its answer must be JSON of the wire schema, a valid Plan, and name only configured test values and probes
 *   (openai-answer.ts). An unusable answer (cut off, not JSON, not the schema) or a failure that may pass (429,
 *   5xx, network, timeout) is tried once more; a second one, or any other 4xx at once, throws `PlannerFailure`,
 *   which the job service records as an errored job.
 * - After the model: the side-effect floor (side-effect-floor.ts) checks every click and key press of its plan
 *   against the answers in the task.
 *
 * Every request is returned as a `PlannerCall` (tokens, time, outcome) for the job's events.
 */
import { PlannerFailure, type Interpretation, type PlannerCall } from '../core/interpretation.js';
import { readAnswer, type ModelAnswer } from './openai-answer.js';
import { createChatClient, type ChatResult, type Problem } from './openai-client.js';
import { chatRequest } from './openai-prompt.js';
import type { Planner, PlannerContext } from './planner.js';
import { allowedKinds, clarificationPolicy, OTHER_SIDE_EFFECTS_ASSUMPTION, READ_ONLY_ASSUMPTION } from './rule-planner.js';
import { SIDE_EFFECTS } from './side-effects.js';
import { applySideEffectFloor } from './side-effect-floor.js';

export interface OpenAiPlannerOptions {
  /** The API base, e.g. https://api.openai.com/v1. */
  url: string;
  model: string;
  apiKey: string;
  /** Per request. */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Milliseconds from an arbitrary origin, for `durationMs`. */
  now?: () => number;
  /** Waits before the retry after a 429, 5xx or network failure (default: Retry-After, else 500 ms; at most 5 s). */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 5_000;
const ATTEMPTS = 2;

type Outcome = { kind: 'answer'; answer: ModelAnswer } | { kind: 'retry'; problem: Problem; hint?: string; delayMs: number } | { kind: 'stop'; problem: Problem };

export function createOpenAiPlanner(options: OpenAiPlannerOptions): Planner {
  const client = createChatClient(options);
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // Defence in depth: reasons are built from fixed words, but nothing that leaves here may hold the key.
  const withoutKey = (text: string) => (options.apiKey.length >= 3 ? text.split(options.apiKey).join('[key]') : text);

  /** One request, recorded as a call, and what to do next. */
  async function attempt(task: string, context: PlannerContext, number: number, hint: string | undefined, calls: PlannerCall[]): Promise<Outcome> {
    const started = now();
    const result: ChatResult = await client.complete(chatRequest(options.model, task, context, hint));
    const durationMs = Math.max(0, Math.round(now() - started));
    const call = (outcome: PlannerCall['outcome'], reason?: string): PlannerCall => ({
      model: options.model,
      attempt: number,
      ...(result.kind === 'failed' ? { promptTokens: 0, completionTokens: 0, totalTokens: 0 } : result.usage),
      durationMs,
      outcome,
      ...(reason === undefined ? {} : { reason: withoutKey(reason) }),
    });

    if (result.kind === 'failed') {
      calls.push(call('failed', result.problem.reason));
      if (!result.retry) return { kind: 'stop', problem: result.problem };
      return { kind: 'retry', problem: result.problem, delayMs: Math.min(result.retryAfterMs ?? DEFAULT_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS) };
    }
    if (result.kind === 'invalid') {
      calls.push(call('invalid', result.problem.reason));
      return { kind: 'retry', problem: result.problem, hint: result.problem.reason, delayMs: 0 };
    }
    const reading = readAnswer(result.content, context);
    if (!reading.ok) {
      const problem: Problem = {
        key: 'answer',
        reason: `the model's answer was not usable: ${reading.problem}`,
        twice: `the model's answer was not usable twice (the second time: ${reading.problem})`,
      };
      calls.push(call('invalid', problem.reason));
      return { kind: 'retry', problem, hint: reading.problem, delayMs: 0 };
    }
    calls.push(call('ok'));
    return { kind: 'answer', answer: reading.answer };
  }

  /** The model's answer, after at most two requests; throws `PlannerFailure` with every call otherwise. */
  async function ask(task: string, context: PlannerContext, calls: PlannerCall[]): Promise<ModelAnswer> {
    const problems: Problem[] = [];
    let hint: string | undefined;
    for (let number = 1; number <= ATTEMPTS; number += 1) {
      const outcome = await attempt(task, context, number, hint, calls);
      if (outcome.kind === 'answer') return outcome.answer;
      problems.push(outcome.problem);
      if (outcome.kind === 'stop') break;
      hint = outcome.hint;
      if (number < ATTEMPTS && outcome.delayMs > 0) await sleep(outcome.delayMs);
    }
    throw new PlannerFailure(withoutKey(failureReason(problems)), calls);
  }

  return {
    async interpret(task, context) {
      const policy = clarificationPolicy(task, context);
      if (policy.kind === 'questions') return policy.interpretation;

      const calls: PlannerCall[] = [];
      const answer = await ask(task, context, calls);
      const planned = `Planned by the model ${options.model}.`;
      if (answer.kind === 'questions') {
        return {
          kind: 'needs_clarification',
          questions: answer.questions.map((item) => item.question),
          ambiguities: answer.questions.map((item) => item.ambiguity),
          assumptions: [...policy.assumptions, ...answer.assumptions],
          calls,
        };
      }
      const floor = applySideEffectFloor(answer.plan, policy.rounds);
      if (floor.kind === 'questions') {
        return { kind: 'needs_clarification', questions: floor.questions, ambiguities: floor.ambiguities, assumptions: policy.assumptions, calls };
      }
      const authorised = policy.hits.length > 0 || floor.authorised;
      // What the task's answers allowed and what the floor let through: at run time a click that names any other
      // side effect stops the run, whatever the model wrote (side-effect-guard.ts).
      const allowed = new Set([...allowedKinds(policy.hits, policy.declined), ...floor.allowedKinds]);
      const allowedSideEffects = SIDE_EFFECTS.map((rule) => rule.kind).filter((kind) => allowed.has(kind));
      const interpretation: Interpretation = {
        kind: 'runnable',
        task,
        assumptions: unique([
          ...policy.assumptions,
          ...floor.assumptions,
          authorised ? OTHER_SIDE_EFFECTS_ASSUMPTION : READ_ONLY_ASSUMPTION,
          planned,
          ...answer.assumptions,
        ]),
        plan: authorised ? { ...floor.plan, sideEffects: true, allowedSideEffects } : floor.plan,
        calls,
      };
      return interpretation;
    },
  };
}

/** Why the planner gave up: one problem as it is, the same problem twice as such, two different ones in turn. */
function failureReason(problems: Problem[]): string {
  const [first, second] = problems;
  if (first === undefined) return 'the planner made no request';
  if (second === undefined) return first.reason;
  return first.key === second.key ? second.twice : `${first.reason}, then ${second.reason}`;
}

function unique(texts: string[]): string[] {
  return [...new Set(texts)];
}
