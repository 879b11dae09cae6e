/**
 * One run's page questions to the model (the model planner's `openPageSteps`). Bounded in time and cost, and never
 * a reason for a run to hang or to guess:
 * - each question waits at most PAGE_STEP_TIMEOUT_MS a request (PLANNER_TIMEOUT_MS when that is shorter), and is
 *   asked at most twice: again after an unusable answer, a 429, a 5xx or a network failure, not after a timeout;
 * - a run asks at most PAGE_STEPS_PER_RUN questions; past that, the step is refused saying so;
 * - a model that cannot be reached, or answers badly twice, refuses the step with the reason: the run fails it as
 *   `step_unresolvable` (the rule grounding was tried first and found nothing).
 */
import type { PlannerCall } from '../core/interpretation.js';
import type { PageStepAnswer, PageStepContext, PageStepSession } from '../core/page-steps.js';
import type { Asker } from './openai-ask.js';
import type { ChatClient } from './openai-client.js';
import { readPageAnswer } from './openai-page-answer.js';
import { pageStepRequest } from './openai-page-prompt.js';

/** The longest a page question's request may take. */
export const PAGE_STEP_TIMEOUT_MS = 20_000;
/** Page questions a run may ask (each at most two requests). */
export const PAGE_STEPS_PER_RUN = 10;

export interface PageStepSessionOptions {
  client: ChatClient;
  asker: Asker;
  model: string;
  context: PageStepContext;
  maxQuestions: number;
}

export function createPageStepSession(options: PageStepSessionOptions): PageStepSession {
  let calls: PlannerCall[] = [];
  let asked = 0;
  return {
    async resolve(question): Promise<PageStepAnswer> {
      if (asked >= options.maxQuestions) {
        return { kind: 'refused', reason: `the run already asked the model ${options.maxQuestions} times, its bound per run` };
      }
      asked += 1;
      const answer = await options.asker.ask(
        {
          client: options.client,
          body: (hint) => pageStepRequest(options.model, options.context, question, hint),
          read: (content) => readPageAnswer(content, question),
          retryTimeout: false,
        },
        calls,
      );
      return answer.ok ? answer.value : { kind: 'refused', reason: `the model could not be asked: ${answer.reason}` };
    },
    takeCalls() {
      const taken = calls;
      calls = [];
      return taken;
    },
  };
}
