/**
 * The OpenAI-compatible planner (`PLANNER=openai`): a chat-completions model with structured output writes the plan
 * or the questions; everything around the model stays deterministic.
 *
 * - Before the model: the rule planner's clarification policy. A vague task or an unanswered side effect gets its
 *   questions without a request, so asking first never depends on a model.
 * - The model sees names only (openai-prompt.ts): the task, test value names and evidence criterion keys. Planning
 *   happens when a job is created, before any browser exists, so there is no page yet.
 * - In the run, a target of a step that acts which the rule grounding cannot resolve is shown to the model with the
 *   page (openai-page-steps.ts): a bounded, masked accessibility snapshot as text, never a browser object.
 * - Its answer must be JSON of the wire schema, a valid Plan, and name only configured test values and probes
 *   (openai-answer.ts). An unusable answer (cut off, not JSON, not the schema) or a failure that may pass (429,
 *   5xx, network, timeout) is tried once more (openai-ask.ts); a second one, or any other 4xx at once, throws
 *   `PlannerFailure`, which the job service records as an errored job.
 * - After the model: the side-effect floor (side-effect-floor.ts) checks every click and key press of its plan
 *   against the answers in the task.
 *
 * Every request is returned as a `PlannerCall` (tokens, time, outcome) for the job's events.
 */
import { PlannerFailure, type Interpretation, type PlannerCall } from '../core/interpretation.js';
import { readAnswer, type AnswerReading, type ModelAnswer } from './openai-answer.js';
import { createAsker, type Reading } from './openai-ask.js';
import { createChatClient } from './openai-client.js';
import { createPageStepSession, PAGE_STEP_TIMEOUT_MS, PAGE_STEPS_PER_RUN } from './openai-page-steps.js';
import { flowNamesRequest, readFlowNames } from './openai-flow-names.js';
import { chatRequest } from './openai-prompt.js';
import { countedCalls } from './counted-calls.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
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
  /** Counts each request to the model, by outcome, and its tokens (default: nothing). */
  telemetry?: Telemetry;
}

export function createOpenAiPlanner(options: OpenAiPlannerOptions): Planner {
  const telemetry = options.telemetry ?? NO_TELEMETRY;
  const client = countedCalls(createChatClient(options), telemetry);
  // A page question waits less than a plan: a run is waiting on it, step by step.
  const pageClient = countedCalls(createChatClient({ ...options, timeoutMs: Math.min(options.timeoutMs, PAGE_STEP_TIMEOUT_MS) }), telemetry);
  // Defence in depth: reasons are built from fixed words, but nothing that leaves here may hold the key.
  const withoutKey = (text: string) => (options.apiKey.length >= 3 ? text.split(options.apiKey).join('[key]') : text);
  const asker = createAsker({
    model: options.model,
    now: options.now ?? (() => performance.now()),
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    withoutKey,
  });

  /** The model's answer, after at most two requests; throws `PlannerFailure` with every call otherwise. */
  async function ask(task: string, context: PlannerContext, calls: PlannerCall[]): Promise<ModelAnswer> {
    const asked = await asker.ask({ client, body: (hint) => chatRequest(options.model, task, context, hint), read: (content) => asReading(readAnswer(content, context)) }, calls);
    if (!asked.ok) throw new PlannerFailure(asked.reason, calls);
    return asked.value;
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
    openPageSteps(context) {
      return createPageStepSession({ client: pageClient, asker, model: options.model, context, maxQuestions: PAGE_STEPS_PER_RUN });
    },
    async nameFlows(flows) {
      const calls: PlannerCall[] = [];
      if (flows.length === 0) return { ok: true, names: [], calls };
      const asked = await asker.ask({ client, body: (hint) => flowNamesRequest(options.model, flows, hint), read: (content) => readFlowNames(content, flows) }, calls);
      return asked.ok ? { ok: true, names: asked.value, calls } : { ok: false, reason: asked.reason, calls };
    },
  };
}

function asReading(reading: AnswerReading): Reading<ModelAnswer> {
  return reading.ok ? { ok: true, value: reading.answer } : reading;
}

function unique(texts: string[]): string[] {
  return [...new Set(texts)];
}
