/**
 * What a task types or selects: a literal ("SAVE10", "demo@example.test", "'Blue'") or a configured test value by
 * semantic name ("the demo password" → `demoPassword`). The rules, in order:
 *
 * 1. A quoted phrase is a literal, as written; so is a phrase that is self-evidently a value: an e-mail address, a
 *    URL, a number (an amount, a percentage), a date or a time, a phone number.
 * 2. A configured name written as it is configured ("demoPassword", "the demoPassword") is that test value; the
 *    run reads it from its secret, and only its name is ever in the plan.
 * 3. A phrase whose words include every word of a configured name is that test value ("the demo password" and
 *    `demo_password`, "demoPassword" and `demoPassword`). Words come from camelCase, snake_case, kebab-case and
 *    spaces, lower-cased; "e-mail"/"mail" count as "email", "pass"/"pwd"/"passcode" as "password".
 * 4. A phrase that refers to something ("the coupon code", "my password": a determiner first) whose words all
 *    appear in one configured name is that test value (`coupon_code_primary`). Several equally good names: ask.
 * 5. A phrase shaped like a reference to a stored value ("the demo password", "the API token") that matches no
 *    name is missing: the planner asks which test value holds it instead of typing the words.
 * 6. Anything else is a literal.
 */
import type { PlanValue } from '../core/plan.js';
import { maskQuotes, matchOutsideQuotes, stripDeterminers, trimPunctuation, unquote, wordsOf } from './words.js';

export type ValueReading =
  | { kind: 'value'; value: PlanValue }
  /** `phrase` refers to a stored value that no configured name matches (or that several match equally). */
  | { kind: 'missing'; phrase: string; candidates: string[] };

const REFERENCE = /^(?:the|a|an|my|your|our|their|its|this|that)\s+/i;
const STORED_THING =
  /\b(?:password|passcode|pin|e-?mail(?:\s+address)?|username|user\s?name|login|credentials?|code|coupon|voucher|token|api\s+key|key|secret|card(?:\s+number)?|phone(?:\s+number)?|account\s+number|iban|otp|value)s?$/i;
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/**
 * What is a value by its shape alone, typed as written even if its words happen to match a name: an e-mail
 * address, a URL, a number (signed, with a currency or a percent sign, with separators), a date (ISO, 05/01/2024,
 * 1 May 2024, May 1 2024), a time, a phone number (seven digits or more, with + ( ) - . and spaces).
 */
const LITERAL_SHAPES: readonly RegExp[] = [
  /^[^\s@]+@[^\s@]+$/,
  /^(?:https?:\/\/|www\.)\S+$/i,
  /^[-+]?[$€£¥]?\s?\d[\d.,' ]*%?$/,
  /^\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?$/,
  /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/,
  /^\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?$/i,
  new RegExp(`^\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?$`, 'i'),
  new RegExp(`^${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?$`, 'i'),
];
const PHONE = /^\+?[\d\s().-]+$/;

/** A phrase that is a value by its shape alone (see LITERAL_SHAPES). */
export function isLiteralShape(phrase: string): boolean {
  const text = phrase.trim();
  if (LITERAL_SHAPES.some((shape) => shape.test(text))) return true;
  return PHONE.test(text) && (text.match(/\d/g)?.length ?? 0) >= 7;
}

/** The configured name `phrase` writes out as configured ("demoPassword", "the demoPassword"), if any. */
export function exactName(phrase: string, testValueNames: readonly string[]): string | undefined {
  const text = trimPunctuation(phrase).replace(REFERENCE, '').replace(/^(?:test\s+value|secret)\s+/i, '').trim();
  return testValueNames.find((name) => name === text) ?? singleOrNone(testValueNames.filter((name) => name.toLowerCase() === text.toLowerCase()));
}

/**
 * A phrase that can only be a value, never a field's name: quoted, shaped like a value, or a configured name
 * written out. "enter demo@acme.test as the Email" and "enter the Email as demo@acme.test" are told apart by it.
 */
export function isEvidentValue(phrase: string, testValueNames: readonly string[]): boolean {
  const text = trimPunctuation(phrase);
  return unquote(text) !== undefined || isLiteralShape(text) || exactName(text, testValueNames) !== undefined;
}

function singleOrNone(names: string[]): string | undefined {
  return names.length === 1 ? names[0] : undefined;
}
const IGNORED = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'its', 'this', 'that', 'of', 'for', 'value', 'values', 'secret', 'configured', 'stored', 'saved']);

export function readValue(phrase: string, testValueNames: readonly string[]): ValueReading {
  const text = trimPunctuation(phrase);
  const quoted = unquote(text);
  if (quoted !== undefined) return literal(quoted);
  const exact = exactName(text, testValueNames);
  if (exact !== undefined) return testValue(exact);
  if (isLiteralShape(text)) return literal(text);

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
  // Its words, so that "the demoPassword" (a name written out, not configured) is a reference too.
  if (reference && (STORED_THING.test(text) || STORED_THING.test(wordsOf(text).join(' ')))) return { kind: 'missing', phrase: text, candidates: [] };
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

/** What people call a form field by its plain name, so that "enter your email" is a field named without a value. */
const FIELD_WORDS =
  /^(?:e-?mail(?:\s+address)?|password|passcode|pin|username|user\s*name|login|(?:first|last|full|given|family|company|display|user)?\s*name|surname|phone(?:\s+number)?|mobile(?:\s+number)?|telephone|address|street|city|town|state|county|region|zip(?:\s+code)?|post\s*code|postal\s+code|country|company|quantity|qty|amount|date(?:\s+of\s+birth)?|birthday|age|message|comment|note|subject|title|description|website|url|card\s+number|cvc|cvv|expiry(?:\s+date)?|search)$/i;
/** A field's plain name ("email", "Phone number", "Quantity"), as people call fields without saying "field". */
export function isFieldName(phrase: string): boolean {
  return FIELD_WORDS.test(stripDeterminers(trimPunctuation(phrase)));
}

/** The pairs of a form filled in one go (form-steps.ts) and of sign-in's "with email X and password Y": parts joined by "and", "," or ";". */
const PAIR_SEPARATOR = /\s+and\s+|\s*[,;]\s+/gi;
const PAIR = /^(.+?)\s*(?::|=|\s(?:is|of|as))?\s+("[^"]*"|'[^']*'|\S+)$/i;

export interface FieldValuePair {
  field: string;
  value: string;
}

/** "email X and password Y" → [{email, X}, {password, Y}]; undefined unless every part is a field and a value. */
export function fieldValuePairs(text: string, testValueNames: readonly string[]): FieldValuePair[] | undefined {
  const masked = maskQuotes(text);
  const parts: string[] = [];
  let start = 0;
  for (const separator of masked.matchAll(PAIR_SEPARATOR)) {
    parts.push(text.slice(start, separator.index));
    start = separator.index + separator[0].length;
  }
  parts.push(text.slice(start));
  const pairs: FieldValuePair[] = [];
  for (const part of parts) {
    const pair = matchOutsideQuotes(trimPunctuation(part), PAIR);
    if (pair === undefined) return undefined;
    const field = stripDeterminers(pair[1]!);
    if (field === '' || field.split(/\s+/).length > 4 || isEvidentValue(field, testValueNames)) return undefined;
    // "with valid data" is no pair: the value must be one by its shape, or the field a field by its name.
    if (!isEvidentValue(pair[2]!, testValueNames) && !isFieldName(field)) return undefined;
    pairs.push({ field, value: pair[2]! });
  }
  return pairs.length === 0 ? undefined : pairs;
}
