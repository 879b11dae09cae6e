/**
 * What a task types or selects: a literal ("SAVE10", "demo@example.test", "'Blue'") or a configured test value by
 * semantic name ("the demo password" → `demoPassword`). The rules, in order:
 *
 * 1. A quoted phrase is a literal, as written.
 * 2. A phrase whose words include every word of a configured name is that test value ("the demo password" and
 *    `demo_password`, "demoPassword" and `demoPassword`). Words come from camelCase, snake_case, kebab-case and
 *    spaces, lower-cased; "e-mail"/"mail" count as "email", "pass"/"pwd"/"passcode" as "password".
 * 3. A phrase that refers to something ("the coupon code", "my password": a determiner first) whose words all
 *    appear in one configured name is that test value (`coupon_code_primary`). Several equally good names: ask.
 * 4. A phrase shaped like a reference to a stored value ("the demo password", "the API token") that matches no
 *    name is missing: the planner asks which test value holds it instead of typing the words.
 * 5. Anything else is a literal.
 */
import type { PlanValue } from '../core/plan.js';
import { trimPunctuation, unquote, wordsOf } from './words.js';

export type ValueReading =
  | { kind: 'value'; value: PlanValue }
  /** `phrase` refers to a stored value that no configured name matches (or that several match equally). */
  | { kind: 'missing'; phrase: string; candidates: string[] };

const REFERENCE = /^(?:the|a|an|my|your|our|their|its|this|that)\s+/i;
const STORED_THING =
  /\b(?:password|passcode|pin|e-?mail(?:\s+address)?|username|user\s?name|login|credentials?|code|coupon|voucher|token|api\s+key|key|secret|card(?:\s+number)?|phone(?:\s+number)?|account\s+number|iban|otp|value)s?$/i;
/** An address, a URL or a number is typed as written even if its words happen to match a name. */
const LITERAL_SHAPE = /^[^\s@]+@[^\s@]+$|^https?:\/\/|^[$€£]?\d[\d.,]*$/i;
const IGNORED = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'its', 'this', 'that', 'of', 'for', 'value', 'values', 'secret', 'configured', 'stored', 'saved']);

export function readValue(phrase: string, testValueNames: readonly string[]): ValueReading {
  const text = trimPunctuation(phrase);
  const quoted = unquote(text);
  if (quoted !== undefined) return literal(quoted);
  if (testValueNames.includes(text)) return testValue(text);
  if (LITERAL_SHAPE.test(text)) return literal(text);

  const words = new Set(wordsOf(text).filter((word) => !IGNORED.has(word)));
  const named = best(
    testValueNames.filter((name) => wordsOf(name).length > 0 && wordsOf(name).every((word) => words.has(word))),
    (name) => wordsOf(name).length,
  );
  if (named.length === 1) return testValue(named[0]);

  const reference = REFERENCE.test(text);
  if (reference && words.size > 0) {
    const containing = best(
      testValueNames.filter((name) => [...words].every((word) => wordsOf(name).includes(word))),
      (name) => -wordsOf(name).length,
    );
    if (containing.length === 1) return testValue(containing[0]);
    if (containing.length > 1) return { kind: 'missing', phrase: text, candidates: containing };
  }
  if (named.length > 1) return { kind: 'missing', phrase: text, candidates: named };
  if (reference && STORED_THING.test(text)) return { kind: 'missing', phrase: text, candidates: [] };
  return literal(text);
}

/** The names a configured-name match prefers: those with the highest `score`. */
function best(names: string[], score: (name: string) => number): string[] {
  const top = Math.max(...names.map(score));
  return names.filter((name) => score(name) === top);
}

/** The question for a phrase that names a test value the repository does not have (or has several of). */
export function missingValueQuestion(phrase: string, candidates: readonly string[]): string {
  return candidates.length > 0
    ? `Which test value holds ${phrase}: ${candidates.join(' or ')}?`
    : `Which test value holds ${phrase}? Configure it in testValueSecretRefs.`;
}

/** A configured name that an answer mentions on its own (`demoPassword`, "use demo_password"), if exactly one. */
export function nameInAnswer(answer: string, testValueNames: readonly string[]): string | undefined {
  const mentioned = testValueNames.filter((name) =>
    new RegExp(`(?:^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\w-])`, 'i').test(answer),
  );
  return mentioned.length === 1 ? mentioned[0] : undefined;
}

export function describeValue(value: PlanValue): string {
  return value.kind === 'literal' ? JSON.stringify(value.text) : `the test value ${value.name}`;
}

function literal(text: string): ValueReading {
  return { kind: 'value', value: { kind: 'literal', text } };
}

function testValue(name: string): ValueReading {
  return { kind: 'value', value: { kind: 'testValue', name } };
}
