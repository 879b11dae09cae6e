/**
 * Clauses that put something into a form: "type the coupon code into Coupon", "enter demo@example.test in the
 * Email field", "fill Password with the demo password", "select Blue in Colour", "check Remember me", "uncheck …",
 * "search for order 1234", "apply the coupon SAVE10".
 */
import type { PlanStep, PlanValue, Target } from '../core/plan.js';
import { hasVisited, pagePath } from './pages.js';
import { question, steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { describeTarget, readTarget } from './targets.js';
import { describeValue, missingValueQuestion, nameInAnswer, readValue } from './values.js';
import { capitalise, matchOutsideQuotes, trimPunctuation } from './words.js';

const TYPE_INTO = /^(?:type|enter|input|write|put|paste|key in|fill in|fill|insert)\s+(.+?)\s+(?:into|in|inside|in to)\s+(.+)$/i;
const FILL_WITH = /^(?:fill(?:\s+in|\s+out)?|complete|populate|enter)\s+(.+?)\s+(?:with|as)\s+(.+)$/i;
const SET_TO = /^(?:set|change|switch)\s+(.+?)\s+to\s+(.+)$/i;
const USE_AS = /^use\s+(.+?)\s+(?:as|for)\s+(.+)$/i;
const CLEAR = /^(?:clear|empty)\s+(.+\s(?:field|input|box|text ?box))$/i;
const SELECT_IN = /^(?:select|choose|pick)\s+(.+?)\s+(?:in|from|for|as|under)\s+(.+)$/i;
const SELECT = /^(?:select|choose|pick)\s+(.+)$/i;
const UNCHECK = /^(?:un-?check|un-?tick|deselect|unselect|turn off|switch off)\s+(.+)$/i;
const CHECK = /^(check|tick|turn on|switch on|accept|agree to)\s+(.+)$/i;
const CHECKBOX_NOUN = /\s(?:check ?box(?:es)?|check-box|tick ?box|box|toggle|switch|option|radio(?: button)?)$/i;
const AGREEMENT = /\b(?:terms|conditions|policy|privacy|cookies?|agreement|consent|newsletter|remember me)\b/i;
const SEARCH = /^search\s+(?:for\s+)?(.+?)(?:\s+(?:in|on|using)\s+(.+?\s(?:field|box|bar|input)))?$/i;
const COUPON =
  /^(?:apply|use|redeem|enter|add|type|input)\s+(?:the\s+|a\s+|an\s+|my\s+)?(coupon|promo|discount|voucher|gift card)(?:\s+code)?(?:\s+(.+?))?(?:\s+(?:to|in|on|at)\s+(?:the\s+|my\s+)?(?:cart|basket|bag|order|checkout))?$/i;
const FORM_WITHOUT_VALUES = /^(?:fill(?:\s+in|\s+out)?|complete)\s+(?:the\s+|a\s+)?(.+?)\s+form$/i;
/** "put the Notebook in the basket" adds to the cart (clicks.ts); it types nothing. */
const CART = /^(?:the\s+|my\s+|your\s+)?(?:shopping\s+)?(?:cart|basket|bag|trolley|wish ?list|favou?rites)$/i;
const DROPDOWN = /\b(?:drop-?down|select(?: box)?|combo ?box|menu)$/i;

export function readFormStep(clause: string, context: ReadingContext): Reading {
  const typed = matchOutsideQuotes(clause, TYPE_INTO) ?? swap(matchOutsideQuotes(clause, FILL_WITH)) ?? matchOutsideQuotes(clause, USE_AS);
  if (typed !== undefined && !CART.test(trimPunctuation(typed[2]!))) return valueInto('fill', typed[1]!, typed[2]!, context);

  const setTo = matchOutsideQuotes(clause, SET_TO);
  if (setTo !== undefined) return valueInto(DROPDOWN.test(trimPunctuation(setTo[1]!)) ? 'select' : 'fill', setTo[2]!, setTo[1]!, context);

  const cleared = matchOutsideQuotes(clause, CLEAR);
  if (cleared !== undefined) return valueInto('fill', '""', cleared[1]!, context);

  const coupon = matchOutsideQuotes(clause, COUPON);
  if (coupon !== undefined) return applyCoupon(coupon[1]!, coupon[2], context);

  const selectIn = matchOutsideQuotes(clause, SELECT_IN);
  if (selectIn !== undefined) return valueInto('select', selectIn[1]!, selectIn[2]!, context);

  const unchecked = matchOutsideQuotes(clause, UNCHECK);
  if (unchecked !== undefined) return tick(unchecked[1]!, false, 'Uncheck');

  const checked = matchOutsideQuotes(clause, CHECK);
  if (checked !== undefined) {
    const [, verb = '', object = ''] = checked;
    const plain = !/^(?:the|a|an|my|your|our|this|that)\s/i.test(object.trim()) || CHECKBOX_NOUN.test(trimPunctuation(object));
    const isCheck = /^check$/i.test(verb) ? plain : /^(?:accept|agree to)$/i.test(verb) ? AGREEMENT.test(object) : true;
    if (isCheck) return tick(object, true, 'Check');
  }

  const selected = matchOutsideQuotes(clause, SELECT);
  if (selected !== undefined) return tick(selected[1]!, true, 'Select');

  const search = matchOutsideQuotes(clause, SEARCH);
  if (search !== undefined) return searchFor(search[1]!, search[2], context);

  const form = matchOutsideQuotes(clause, FORM_WITHOUT_VALUES);
  if (form !== undefined) {
    const path = pagePath(`${form[1]!} page`);
    const open: PlanStep[] = context.stepCount === 0 && path !== undefined ? [{ action: 'navigate', description: `Go to ${path}`, url: path }] : [];
    return steps(open, [`"${clause}" names no values, so the run opens the form and types nothing into it.`]);
  }
  return UNKNOWN;
}

/** FILL_WITH names the field first: put the value first like the other shapes. */
function swap(match: Array<string | undefined> | undefined): Array<string | undefined> | undefined {
  return match === undefined ? undefined : [match[0], match[2], match[1]];
}

function valueInto(action: 'fill' | 'select', valuePhrase: string, fieldPhrase: string, context: ReadingContext): Reading {
  const target = readTarget(fieldPhrase, 'field');
  if (target === undefined) return UNKNOWN;
  const value = resolveValue(valuePhrase, context);
  if (!('value' in value)) return value.reading;
  const description =
    action === 'fill' ? `Fill ${describeTarget(target)} with ${describeValue(value.value)}` : `Select ${describeValue(value.value)} in ${describeTarget(target)}`;
  return steps([{ action, description, target, value: value.value }]);
}

/** The value a phrase names, or the question to ask about it (answered by naming a configured test value). */
function resolveValue(phrase: string, context: ReadingContext): { value: PlanValue } | { reading: Reading } {
  const read = readValue(phrase, context.testValueNames);
  if (read.kind === 'value') return { value: read.value };
  const text = missingValueQuestion(read.phrase, read.candidates);
  const answer = context.answerTo(text);
  const named = answer === undefined ? undefined : nameInAnswer(answer, read.candidates.length > 0 ? read.candidates : context.testValueNames);
  if (named !== undefined) return { value: { kind: 'testValue', name: named } };
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

function tick(phrase: string, checked: boolean, verb: string): Reading {
  const target = readTarget(phrase, 'field');
  if (target === undefined) return UNKNOWN;
  return steps([{ action: 'check', description: `${verb} ${describeTarget(target)}`, target, checked }]);
}

function searchFor(valuePhrase: string, fieldPhrase: string | undefined, context: ReadingContext): Reading {
  const target: Target | undefined = fieldPhrase === undefined ? { by: 'placeholder', name: 'Search', exact: false } : readTarget(fieldPhrase, 'field');
  if (target === undefined) return UNKNOWN;
  const value = resolveValue(valuePhrase, context);
  if (!('value' in value)) return value.reading;
  return steps([
    { action: 'fill', description: `Fill ${describeTarget(target)} with ${describeValue(value.value)}`, target, value: value.value },
    { action: 'press', description: `Press Enter in ${describeTarget(target)}`, key: 'Enter', target },
  ]);
}

/**
 * "apply the coupon SAVE10": the code goes into the field named after the word the task used ("Coupon", "Promo",
 * "Voucher") and the Apply button sends it. Coupons live in the cart, so the plan opens /cart first unless it is on
 * the cart or checkout page already. Without a code, the code is the test value named like "the coupon code".
 */
function applyCoupon(noun: string, codePhrase: string | undefined, context: ReadingContext): Reading {
  const code = trimPunctuation(codePhrase ?? '');
  const value = resolveValue(code === '' ? `the ${noun} code` : code, context);
  if (!('value' in value)) return value.reading;
  const field: Target = { by: 'label', name: capitalise(noun.toLowerCase()), exact: false };
  const last = context.visited.at(-1);
  const inCart = last !== undefined && (hasVisited([last], '/cart') || hasVisited([last], '/checkout'));
  const open: PlanStep[] = inCart ? [] : [{ action: 'navigate', description: 'Go to /cart', url: '/cart' }];
  return steps(
    [
      ...open,
      { action: 'fill', description: `Fill ${describeTarget(field)} with ${describeValue(value.value)}`, target: field, value: value.value },
      { action: 'click', description: 'Click the "Apply" button', target: { by: 'role', role: 'button', name: 'Apply', exact: false } },
    ],
    inCart ? [] : [`Applies the ${noun.toLowerCase()} on the cart page (/cart), where shops keep the ${noun.toLowerCase()} field.`],
  );
}
