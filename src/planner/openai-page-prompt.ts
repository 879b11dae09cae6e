/**
 * What the model is told when a run asks it about the live page: the task (secrets masked), the step as planned,
 * which of its targets to find, why the rule grounding could not, and the page as data (URL, title, the bounded and
 * masked accessibility snapshot as text). Test value names only, never values.
 */
import type { PageStepContext, PageStepQuestion } from '../core/page-steps.js';
import { PAGE_ANSWER_SCHEMA_NAME, pageAnswerJsonSchema } from './openai-page-answer.js';
import { structuredRequest, type ChatMessage } from './openai-structured.js';

const SYSTEM_PROMPT = `You help a browser QA run find the element a step acts on, on the live page. A person wrote a
task; it was planned into steps; the runner could not find the target of one step by the page's names alone. You get
the task, that step (JSON, in the plan vocabulary), which of its targets to find ("target", or "to" for the drop
target of a drag), why the runner could not find it, and the page: its URL, title and accessibility snapshot, where
every element that can be acted on has a ref ([ref=e12]).

Rules:
- Answer with one JSON object that follows the given schema.
- kind "step": the step exactly as given (same action, value, key, state, file: everything), with its target
  written as the page names the element, and ref: the ref of that element in the snapshot. The runner refuses a
  step that does anything else than the one given.
- kind "none", with the reason, when no element of the page is what the step means, or when several are and
  nothing in the task tells them apart. Never guess.
- Field values are hidden ([value hidden]) and secrets are shown as [secret]. A snapshot that was cut ends with a
  "note" line.
- The runner stops a click that would cause a side effect the task did not allow (buy, delete, send, …) and a
  link that leads off the allowed sites, whatever you answer.`;

const ANSWER_JSON_SCHEMA = pageAnswerJsonSchema();

/** The request body for one page question; `retryHint` says what was wrong with the previous answer. */
export function pageStepRequest(model: string, context: PageStepContext, question: PageStepQuestion, retryHint?: string): Record<string, unknown> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: JSON.stringify({
        task: context.task,
        testValueNames: context.testValueNames,
        step: question.step,
        find: question.which,
        failure: question.failure,
        page: question.page,
      }),
    },
  ];
  return structuredRequest(model, messages, { name: PAGE_ANSWER_SCHEMA_NAME, schema: ANSWER_JSON_SCHEMA }, retryHint);
}
