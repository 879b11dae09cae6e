/**
 * A model's answer to a page question (openai-page-prompt.ts): the step as planned with the element it acts on, by
 * the ref the snapshot gave that element, or "none" with the reason. Three gates, as for a plan (openai-answer.ts):
 * JSON, the wire schema, and a valid step of the vocabulary whose ref the model was shown. Then the policy: the
 * step must be the one the task said — the same action with the same value, key, state, file, everything but its
 * target — so a model shown the page may choose where a step acts, never what it does. What it chose then runs
 * behind the runtime side-effect guard and the allowlist like any other step.
 */
import { z } from 'zod';
import { stepSchema, type PlanStep } from '../core/plan.js';
import type { PageStepAnswer, PageStepQuestion } from '../core/page-steps.js';
import { wireStepSchema } from './openai-answer-schema.js';
import { withoutNulls } from './openai-answer.js';
import type { Reading } from './openai-ask.js';
import { firstIssue, parseAnswerJson } from './openai-structured.js';

/** `response_format.json_schema.name` of a page question. */
export const PAGE_ANSWER_SCHEMA_NAME = 'qa_page_step_answer';
/** The longest reason taken from a model (it is shown to people in the step's finding). */
const MAX_REASON = 300;
/** A snapshot ref as Playwright writes it: `e12`, in a frame `f1e3`. */
const REF = /^(?:[a-z]{1,3}\d{1,7}){1,2}$/;

export const pageAnswerSchema = z.strictObject({
  kind: z.enum(['step', 'none']).describe('"step" when one element of the page is what the step means; "none" when no element is, or several are and nothing tells them apart.'),
  step: wireStepSchema.nullable().describe('For "step": the step as given, with its target as the page names the element; else null.'),
  ref: z.string().nullable().describe('For "step": the ref of that element in the snapshot ("e12"); else null.'),
  reason: z.string().describe('Why this element (or why none), in one short sentence.'),
});

export function pageAnswerJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(pageAnswerSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return schema;
}

/**
 * The answer's text → an element or a refusal (a usable answer), or the problem that makes it unusable (asked once
 * more). A step that does something other than the question's is a usable answer: a refusal, not asked again.
 */
export function readPageAnswer(content: string, question: PageStepQuestion): Reading<PageStepAnswer> {
  const answered = parseAnswerJson(content);
  if (!answered.ok) return answered;
  const wire = pageAnswerSchema.safeParse(answered.json);
  if (!wire.success) return { ok: false, problem: `the answer did not follow the schema: ${firstIssue(wire.error)}` };
  const { kind, step, ref } = wire.data;
  const reason = bounded(wire.data.reason);
  if (kind === 'none') return { ok: true, value: { kind: 'refused', reason: `the model found no element for it${reason === '' ? '' : `: ${reason}`}` } };
  if (step === null || ref === null) return { ok: false, problem: 'kind was "step" but step or ref was null' };
  if (!REF.test(ref) || !question.page.snapshot.includes(`[ref=${ref}]`)) return { ok: false, problem: `the ref "${ref.slice(0, 20)}" is not one of the snapshot's` };
  const parsed = stepSchema.safeParse(withoutNulls(step));
  if (!parsed.success) return { ok: false, problem: `the step was not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const changed = changedFrom(question.step, parsed.data);
  if (changed !== undefined) return { ok: true, value: { kind: 'refused', reason: `the model proposed a step the task did not say (${changed}), which was refused` } };
  return { ok: true, value: { kind: 'element', ref, reason } };
}

/**
 * What `answered` changes of `planned` besides its targets and description, in words; undefined when nothing.
 * Both are parsed plan steps, so a field left at its default reads the same in both.
 */
export function changedFrom(planned: PlanStep, answered: PlanStep): string | undefined {
  if (answered.action !== planned.action) return `${answered.action} instead of ${planned.action}`;
  const rest = (step: PlanStep) => Object.fromEntries(Object.entries(step).filter(([key]) => !['description', 'target', 'to'].includes(key)));
  const before = rest(planned);
  const after = rest(answered);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const field = keys.find((key) => stable(before[key]) !== stable(after[key]));
  return field === undefined ? undefined : `its ${field} differs from the plan's`;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, item]) => `${JSON.stringify(key)}:${stable(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function bounded(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length <= MAX_REASON ? collapsed : `${collapsed.slice(0, MAX_REASON - 1)}…`;
}
