/**
 * What the model is told. It gets the task (with any Clarifications blocks), the semantic names of the test values
 * and the keys of the criteria that have an evidence probe: names only. Secret values, probe URLs and probe tokens
 * are never known to a planner (PlannerContext holds none), so they cannot end up in a prompt.
 */
import { ANSWER_SCHEMA_NAME, answerJsonSchema, MAX_MODEL_STEPS } from './openai-answer-schema.js';
import type { PlannerContext } from './planner.js';
import { structuredRequest, type ChatMessage } from './openai-structured.js';

const SYSTEM_PROMPT = `You plan browser QA checks. A person wrote a task in plain language; you turn it into a plan of
browser steps that a runner executes against the site under test, or you ask questions when the task cannot be
planned without an answer.

Rules:
- Answer with one JSON object that follows the given schema.
- Steps: navigate (a path like "/pricing" on the site under test), click, fill, select, check, press, waitFor,
  expectText, expectTitle, expectValue, expectUrl, expectState, expectCount, probe. At most ${MAX_MODEL_STEPS} steps.
- A JavaScript dialog (alert, confirm, prompt) is a dialog step right after the step that opens it: its text (what
  the dialog should say) and accept (OK, with promptText typed into a prompt) or not (Cancel). A right click is
  rightClick.
- An expectation about what an element shows names that element, not the text it should show: "the heading says
  X" is expectText with role "heading" and no target, "the title is X" is expectTitle, "the Email field contains
  X" is expectValue of that field. Then a failure can say what the page shows instead.
- Describe targets the way a person sees the page: by role and accessible name (a button "Sign in", a link
  "Pricing"), by label, by visible text or by placeholder. Never CSS selectors or XPath.
- The click that submits a sign-in form has purpose "signIn" on its target (the runner then finds the form's submit
  button whatever the site calls it); every other target has purpose null.
- Every check the task asks for is an expect step (or a probe step) naming a success criterion, and every success
  criterion is listed in successCriteria with a short key.
- Credentials and other inputs the task does not spell out come from the configured test values: a value
  {"kind": "testValue", "name": <one of testValueNames>}. Never invent a test value name or a value.
- A probe step may only name a key of evidenceCriteria; it asks that criterion's evidence probe whether the effect
  happened.
- The run is read-only unless the task's answers allow more: do not buy, pay, delete, send, invite, publish,
  transfer, change accounts, sign up or submit forms unless an answer says so. Where the task asks for something
  like that and no answer allows it, ask instead of planning it.
- Answers to earlier questions follow the task in "Clarifications:" blocks (Q1:/A1: lines). An answer that declines
  a side effect means the plan stops before it.
- If the task is ambiguous in a way that changes what to check, answer kind "questions" with each question and why
  it matters. Otherwise answer kind "plan", and list in assumptions how you read anything the task left open.`;

const ANSWER_JSON_SCHEMA = answerJsonSchema();

/** The request body for one attempt; `retryHint` says what was wrong with the previous answer. */
export function chatRequest(model: string, task: string, context: PlannerContext, retryHint?: string): Record<string, unknown> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: JSON.stringify({ task, testValueNames: context.testValueNames, evidenceCriteria: context.evidenceCriteria }) },
  ];
  return structuredRequest(model, messages, { name: ANSWER_SCHEMA_NAME, schema: ANSWER_JSON_SCHEMA }, retryHint);
}
