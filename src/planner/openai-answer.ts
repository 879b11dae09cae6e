/**
 * A model's answer text → a plan or questions, or the reason it cannot be used. Three gates, each with its own
 * reason for the retry message and the job: the text must be JSON, the JSON must follow the wire schema
 * (openai-answer-schema.ts), and the plan it holds must be a valid `Plan` that names only what the request named
 * (configured test values, evidence criteria). A model that makes up a test value or a probe is refused here, not at
 * run time.
 */
import { planSchema, type Plan } from '../core/plan.js';
import type { PlannerContext } from './planner.js';
import { wireAnswerSchema, type WireStep } from './openai-answer-schema.js';
import { firstIssue, parseAnswerJson } from './openai-structured.js';

export type ModelAnswer =
  | { kind: 'plan'; plan: Plan; assumptions: string[] }
  | { kind: 'questions'; questions: { question: string; ambiguity: string }[]; assumptions: string[] };

export type AnswerReading = { ok: true; answer: ModelAnswer } | { ok: false; problem: string };

/** The longest question, ambiguity or assumption taken from a model (they are shown to people as they are). */
const MAX_TEXT = 500;

export function readAnswer(content: string, context: PlannerContext): AnswerReading {
  const answered = parseAnswerJson(content);
  if (!answered.ok) return answered;
  const wire = wireAnswerSchema.safeParse(answered.json);
  if (!wire.success) return { ok: false, problem: `the answer did not follow the schema: ${firstIssue(wire.error)}` };
  const { kind, plan, questions, assumptions } = wire.data;
  const tooLong = [...assumptions, ...questions.flatMap((item) => [item.question, item.ambiguity])].find((text) => text.length > MAX_TEXT);
  if (tooLong !== undefined) return { ok: false, problem: `a question, ambiguity or assumption was longer than ${MAX_TEXT} characters` };
  if (assumptions.some((text) => text.trim() === '')) return { ok: false, problem: 'an assumption was empty' };

  if (kind === 'questions') {
    if (questions.length === 0) return { ok: false, problem: 'kind was "questions" but no question was given' };
    if (questions.some((item) => item.question.trim() === '')) return { ok: false, problem: 'a question was empty' };
    return { ok: true, answer: { kind, questions, assumptions } };
  }
  if (plan === null) return { ok: false, problem: 'kind was "plan" but plan was null' };
  const parsed = planSchema.safeParse({ steps: plan.steps.map(withoutNulls), successCriteria: plan.successCriteria });
  if (!parsed.success) return { ok: false, problem: `the plan was not valid: ${firstIssue(parsed.error)}` };
  const unknown = unknownNames(parsed.data, context);
  if (unknown !== undefined) return { ok: false, problem: unknown };
  return { ok: true, answer: { kind, plan: parsed.data, assumptions } };
}

/** The first name in `plan` the request did not give, as a problem; undefined when all are known. */
function unknownNames(plan: Plan, context: PlannerContext): string | undefined {
  const keys = plan.successCriteria.map((criterion) => criterion.key);
  const duplicate = keys.find((key, i) => keys.indexOf(key) !== i);
  if (duplicate !== undefined) return `the success criterion "${duplicate}" was listed twice`;
  const listed = (names: readonly string[]) => (names.length === 0 ? 'none are configured' : `known: ${names.join(', ')}`);
  for (const [i, step] of plan.steps.entries()) {
    const at = `step ${i + 1} (${step.action})`;
    if ((step.action === 'fill' || step.action === 'select') && step.value.kind === 'testValue' && !context.testValueNames.includes(step.value.name)) {
      return `${at} names the test value "${step.value.name}", which is not configured (${listed(context.testValueNames)})`;
    }
    if (step.action === 'probe' && !context.evidenceCriteria.includes(step.criterion)) {
      return `${at} calls a probe for "${step.criterion}", which has no evidence probe (${listed(context.evidenceCriteria)})`;
    }
    if ('criterion' in step && step.criterion !== undefined && !keys.includes(step.criterion)) {
      return `${at} verifies the criterion "${step.criterion}", which is not in successCriteria`;
    }
  }
  return undefined;
}

/** A wire step as a plan step (before `stepSchema` parses it): strict mode's `null` for "not given" becomes an absent field. */
export function withoutNulls(step: WireStep): Record<string, unknown> {
  const drop = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
  const fields = drop(step);
  for (const key of ['target', 'to'] as const) {
    if (typeof fields[key] === 'object' && fields[key] !== null) fields[key] = drop(fields[key] as Record<string, unknown>);
  }
  return fields;
}
