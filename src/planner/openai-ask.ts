/**
 * One question to the model, asked at most twice: a request, recorded as a `PlannerCall` (tokens, time, outcome),
 * and what its answer reads as. An unusable answer (cut off, not JSON, not the schema) is asked again with a hint
 * saying what was wrong; a failure that may pass (429, 5xx, network) after a short wait, and a timeout only when
 * the question allows it; any other 4xx stops at once. Shared by planning a task and resolving a step on the page.
 */
import type { PlannerCall } from '../core/interpretation.js';
import type { ChatClient, ChatResult, Problem } from './openai-client.js';

export type Reading<T> = { ok: true; value: T } | { ok: false; problem: string };

export type Asked<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface AskerOptions {
  model: string;
  /** Milliseconds from an arbitrary origin, for `durationMs`. */
  now: () => number;
  /** Waits before the retry after a 429, 5xx or network failure. */
  sleep: (ms: number) => Promise<void>;
  /** Masks the API key in any reason (defence in depth: reasons are built from fixed words). */
  withoutKey: (text: string) => string;
}

export interface Question<T> {
  client: ChatClient;
  /** The request body; `hint` says what was wrong with the previous answer. */
  body(hint: string | undefined): Record<string, unknown>;
  read(content: string): Reading<T>;
  /** Whether a request that timed out is sent again (default true). */
  retryTimeout?: boolean;
}

const DEFAULT_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 5_000;
const ATTEMPTS = 2;

type Outcome<T> = { kind: 'answer'; value: T } | { kind: 'retry'; problem: Problem; hint?: string; delayMs: number } | { kind: 'stop'; problem: Problem };

export type Asker = ReturnType<typeof createAsker>;

export function createAsker(options: AskerOptions) {
  async function attempt<T>(question: Question<T>, number: number, hint: string | undefined, calls: PlannerCall[]): Promise<Outcome<T>> {
    const started = options.now();
    const result: ChatResult = await question.client.complete(question.body(hint));
    const durationMs = Math.max(0, Math.round(options.now() - started));
    const call = (outcome: PlannerCall['outcome'], reason?: string): PlannerCall => ({
      model: options.model,
      attempt: number,
      ...(result.kind === 'failed' ? { promptTokens: 0, completionTokens: 0, totalTokens: 0 } : result.usage),
      durationMs,
      outcome,
      ...(reason === undefined ? {} : { reason: options.withoutKey(reason) }),
    });

    if (result.kind === 'failed') {
      calls.push(call('failed', result.problem.reason));
      if (!result.retry || (result.problem.key === 'timeout' && question.retryTimeout === false)) return { kind: 'stop', problem: result.problem };
      return { kind: 'retry', problem: result.problem, delayMs: Math.min(result.retryAfterMs ?? DEFAULT_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS) };
    }
    if (result.kind === 'invalid') {
      calls.push(call('invalid', result.problem.reason));
      return { kind: 'retry', problem: result.problem, hint: result.problem.reason, delayMs: 0 };
    }
    const reading = question.read(result.content);
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
    return { kind: 'answer', value: reading.value };
  }

  return {
    /** The answer after at most two requests, or why there is none; every request is pushed onto `calls`. */
    async ask<T>(question: Question<T>, calls: PlannerCall[]): Promise<Asked<T>> {
      const problems: Problem[] = [];
      let hint: string | undefined;
      for (let number = 1; number <= ATTEMPTS; number += 1) {
        const outcome = await attempt(question, number, hint, calls);
        if (outcome.kind === 'answer') return { ok: true, value: outcome.value };
        problems.push(outcome.problem);
        if (outcome.kind === 'stop') break;
        hint = outcome.hint;
        if (number < ATTEMPTS && outcome.delayMs > 0) await options.sleep(outcome.delayMs);
      }
      return { ok: false, reason: options.withoutKey(failureReason(problems)) };
    },
  };
}

/** Why the model gave no answer: one problem as it is, the same problem twice as such, two different ones in turn. */
function failureReason(problems: Problem[]): string {
  const [first, second] = problems;
  if (first === undefined) return 'the planner made no request';
  if (second === undefined) return first.reason;
  return first.key === second.key ? second.twice : `${first.reason}, then ${second.reason}`;
}
