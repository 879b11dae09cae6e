/**
 * A value phrase of a clause → the value a step types, or the question to ask first. Shared by the form readers
 * (form-steps.ts) and the sign-in reader (sign-in.ts), so that "type X into Email" and "sign in as X with password
 * Y" read X and Y alike.
 *
 * Answers: the question about a stored value that no configured name matches is decided by an answer that names a
 * configured test value, or that gives a literal value (quoted, or shaped like a value: "demo@acme.test", "42"),
 * which is then typed as written. An answer that is neither leaves the question open.
 */
import type { PlanValue, Target } from '../core/plan.js';
import { question, type Reading, type ReadingContext } from './reading.js';
import { describeTarget } from './targets.js';
import { exactName, isLiteralShape, missingValueQuestion, nameInAnswer, readValue } from './values.js';
import { trimPunctuation, unquote } from './words.js';

export type Resolved = { value: PlanValue } | { reading: Reading };

/** The value `phrase` names, or the question to ask about it (answered by a configured name or a literal). */
export function resolveValue(phrase: string, context: ReadingContext): Resolved {
  const read = readValue(phrase, context.testValueNames);
  if (read.kind === 'value') return { value: read.value };
  const text = missingValueQuestion(read.phrase, read.candidates);
  const answer = context.answerTo(text);
  const answered = answer === undefined ? undefined : valueInAnswer(answer, read.candidates.length > 0 ? read.candidates : context.testValueNames);
  if (answered !== undefined) return { value: answered };
  const configured = context.testValueNames.length === 0 ? 'none' : context.testValueNames.join(', ');
  return {
    reading: question(
      text,
      read.candidates.length > 0
        ? `"${read.phrase}" could be any of the test values ${read.candidates.join(', ')}.`
        : `"${read.phrase}" names a stored value, and no configured test value matches it (configured: ${configured}).`,
    ),
  };
}

/** The question for a field the task names without saying what goes into it ("fill in the Email field"). */
export function fieldValueQuestion(target: Target): string {
  return `What should the run type into ${describeTarget(target)}? Give the value (in quotes if it has spaces) or the name of a configured test value.`;
}

/**
 * The value for a field named without one: an answer to `fieldValueQuestion` decides it (a configured name, a
 * quoted or value-shaped literal, or any other words as written); no answer asks.
 */
export function valueForField(target: Target, clause: string, context: ReadingContext): Resolved {
  const text = fieldValueQuestion(target);
  const answer = context.answerTo(text);
  if (answer !== undefined) {
    const stripped = withoutLead(answer);
    const named = valueInAnswer(stripped, context.testValueNames);
    if (named !== undefined) return { value: named };
    const read = readValue(stripped, context.testValueNames);
    if (read.kind === 'value' && stripped !== '') return { value: read.value };
  }
  return {
    reading: question(text, `"${clause}" names ${describeTarget(target)} but not what to type into it, and the rule planner does not invent values.`),
  };
}

/** A configured name or a literal an answer gives; undefined when it gives neither. */
function valueInAnswer(answer: string, names: readonly string[]): PlanValue | undefined {
  const text = withoutLead(answer);
  const exact = exactName(text, names);
  if (exact !== undefined) return { kind: 'testValue', name: exact };
  const quoted = unquote(text);
  if (quoted !== undefined) return { kind: 'literal', text: quoted };
  if (isLiteralShape(text)) return { kind: 'literal', text };
  const named = nameInAnswer(answer, names);
  return named === undefined ? undefined : { kind: 'testValue', name: named };
}

/** "use demo@acme.test" → "demo@acme.test": the words people put before a value in an answer. */
function withoutLead(answer: string): string {
  return trimPunctuation(answer.replace(/^\s*(?:(?:please\s+)?(?:use|type|enter|put|try)|it(?:'s| is)|the value is|value:)\s+/i, ''));
}
