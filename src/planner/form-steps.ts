/**
 * Clauses that put something into a form: "type the coupon code into Coupon", "enter demo@example.test in the
 * Email field", "fill Password with the demo password", "select Blue in Colour", "check Remember me", "uncheck …",
 * "search for order 1234", "apply the coupon SAVE10".
 */
import type { PlanStep, Target } from '../core/plan.js';
import { hasVisited, pagePath } from './pages.js';
import { steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { resolveValue, valueForField } from './resolve-value.js';
import { bareFieldTarget } from './bare-fields.js';
import { describeTarget, readTarget } from './targets.js';
import { describeValue, exactName, fieldValuePairs, isEvidentValue, isFieldName, isLiteralShape, type FieldValuePair } from './values.js';
import { capitalise, matchOutsideQuotes, stripDeterminers, trimPunctuation, unquote, wordsOf } from './words.js';

/**
 * Value first: "type X into Email", "enter X in the Email field", "enter X as the Email", "use X for the email",
 * "put 3 in Quantity". Which side is the value is checked again (`orient`): "enter the Email as X" names the field
 * first.
 */
const VALUE_INTO =
  /^(?:type(?:\s+in)?|enter|input|write|put(?:\s+in)?|paste|key in|fill in|fill|insert|use|provide|supply|give)\s+(.+?)\s+(?:into|in|inside|in to|as|for)\s+(.+)$/i;
/** Field first: "fill in Email with X", "fill the Email field with X", "populate Email with X". */
const FIELD_WITH = /^(?:fill(?:\s+in|\s+out)?|complete|populate|enter|answer)\s+(.+?)\s+with\s+(.+)$/i;
/** "fill in the form with email X and password Y", "fill out the sign-in form with Email: X, Password: Y". */
const FORM_WITH = /^(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?:(?:the|a|an|this|that)\s+)?(?:[\w-]+\s+){0,3}form\s+(?:with|using)\s+(.+)$/i;
/** Field, then value, no word between: "enter the email demo@acme.test", "use password 'hunter2'". */
const FIELD_THEN_VALUE = /^(?:type|enter|input|use|fill in|fill|provide|supply|give)\s+(.+?)\s*[:=]?\s+("[^"]*"|'[^']*'|\S+)$/i;
/** A field and nothing to put into it: "fill in the Email field", "enter your email", "type into Password". */
const FIELD_ONLY = /^(?:fill(?:\s+in|\s+out)?|complete|populate|enter|input|provide|type\s+(?:in|into)|type)\s+(.+)$/i;
/** A value and no field: "enter the demo password", "type demo@acme.test" (the field is the one its kind names). */
const VALUE_ONLY = /^(?:type|enter|input|fill in|provide|supply|use)\s+(.+)$/i;
const EMAIL_ADDRESS = /^[^\s@"']+@[^\s@"']+\.[^\s@"']+$/;
/** The kind word a stored value's name ends with → the label of the field it goes into. */
const KIND_FIELDS: Readonly<Record<string, string>> = { email: 'Email', password: 'Password', username: 'Username', phone: 'Phone' };
const FIELD_NOUN = /\s(?:field|input|box|text ?box|text ?area)$/i;
const SET_TO = /^(?:set|change|switch)\s+(.+?)\s+to\s+(.+)$/i;
const CLEAR = /^(?:clear|empty)\s+(.+\s(?:field|input|box|text ?box))$/i;
/** "leave the Zip code empty", "keep the Coupon field blank": the field is found and left with nothing in it. */
const LEAVE_EMPTY = /^(?:but\s+)?(?:leave|keep)\s+(.+?)\s+(?:empty|blank|unfilled|unset|without\s+a\s+value)$/i;
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
  const formWith = matchOutsideQuotes(clause, FORM_WITH);
  if (formWith !== undefined) {
    const pairs = fieldValuePairs(formWith[1]!, context.testValueNames);
    if (pairs !== undefined) return fillPairs(pairs, context);
  }

  const typed = orient(matchOutsideQuotes(clause, VALUE_INTO), context) ?? swap(withoutForm(matchOutsideQuotes(clause, FIELD_WITH)));
  if (typed !== undefined && !CART.test(trimPunctuation(typed[2]!))) return valueInto('fill', typed[1]!, typed[2]!, context);

  const setTo = matchOutsideQuotes(clause, SET_TO);
  if (setTo !== undefined) return valueInto(DROPDOWN.test(trimPunctuation(setTo[1]!)) ? 'select' : 'fill', setTo[2]!, setTo[1]!, context);

  const cleared = matchOutsideQuotes(clause, CLEAR);
  if (cleared !== undefined) return valueInto('fill', '""', cleared[1]!, context);

  const leftEmpty = matchOutsideQuotes(clause, LEAVE_EMPTY);
  if (leftEmpty !== undefined) return valueInto('fill', '""', leftEmpty[1]!, context);

  const coupon = matchOutsideQuotes(clause, COUPON);
  if (coupon !== undefined) return applyCoupon(coupon[1]!, coupon[2], context);

  const fieldThenValue = matchOutsideQuotes(clause, FIELD_THEN_VALUE);
  if (fieldThenValue !== undefined && namesFieldFor(fieldThenValue[1]!, fieldThenValue[2]!, context)) {
    return valueInto('fill', fieldThenValue[2]!, fieldThenValue[1]!, context);
  }

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

  // A field and no value at all: the one case that is asked, since a value is never made up.
  const fieldOnly = matchOutsideQuotes(clause, FIELD_ONLY);
  if (fieldOnly !== undefined && isFieldPhrase(fieldOnly[1]!, context)) {
    const target = readTarget(fieldOnly[1]!, 'field');
    if (target === undefined) return UNKNOWN;
    const value = valueForField(target, clause, context);
    if (!('value' in value)) return value.reading;
    return steps([{ action: 'fill', description: `Fill ${describeTarget(target)} with ${describeValue(value.value)}`, target, value: value.value }]);
  }

  const valueOnly = matchOutsideQuotes(clause, VALUE_ONLY);
  if (valueOnly !== undefined) {
    const field = fieldOfKind(valueOnly[1]!);
    if (field !== undefined) return valueInto('fill', valueOnly[1]!, field, context);
  }
  return UNKNOWN;
}

/**
 * The field a value names by its kind when the task names none: an e-mail address goes into "Email"; a stored
 * value called by its kind ("the demo password", "demoPassword", "the admin email") into the field of that kind.
 */
function fieldOfKind(phrase: string): string | undefined {
  const text = trimPunctuation(phrase);
  if (unquote(text) !== undefined) return undefined;
  if (EMAIL_ADDRESS.test(text)) return 'Email';
  if (isLiteralShape(text)) return undefined;
  const words = wordsOf(text);
  const last = words.at(-1);
  return words.length > 1 || /^(?:the|my|your|our)\s/i.test(text) || /[a-z][A-Z]|[_-]/.test(text) ? (last === undefined ? undefined : KIND_FIELDS[last]) : undefined;
}

/**
 * VALUE_INTO names the value first, and a person may still say "enter the Email as demo@acme.test": the side that
 * can only be a value (value-shaped or quoted over a configured name, over anything else) is the value.
 */
function orient(match: Array<string | undefined> | undefined, context: ReadingContext): Array<string | undefined> | undefined {
  if (match === undefined) return undefined;
  const [whole, first = '', second = ''] = match;
  return valueStrength(second, context) > valueStrength(first, context) ? [whole, second, first] : match;
}

function valueStrength(phrase: string, context: ReadingContext): number {
  const text = trimPunctuation(phrase);
  if (unquote(text) !== undefined || isLiteralShape(text)) return 2;
  return exactName(text, context.testValueNames) !== undefined ? 1 : 0;
}

/**
 * "enter the email demo@acme.test", "enter the code 123456", "type the message 'hello'": the words before a value
 * name its field when they are a field's name, or, before a quoted or value-shaped value, any short phrase.
 */
function namesFieldFor(fieldPhrase: string, valuePhrase: string, context: ReadingContext): boolean {
  if (!isEvidentValue(valuePhrase, context.testValueNames)) return false;
  if (isFieldPhrase(fieldPhrase, context)) return true;
  const name = stripDeterminers(trimPunctuation(fieldPhrase));
  return valueStrength(valuePhrase, context) === 2 && name !== '' && name.split(/\s+/).length <= 3 && !isEvidentValue(name, context.testValueNames);
}

/** A phrase that names a field: it ends with a field noun, or it is a field's plain name ("your email", "Quantity"). */
function isFieldPhrase(phrase: string, context: ReadingContext): boolean {
  const text = trimPunctuation(phrase);
  if (isEvidentValue(text, context.testValueNames)) return false;
  const name = stripDeterminers(text);
  return FIELD_NOUN.test(` ${name}`) || isFieldName(name) || /^["'][^"']+["']\s+(?:field|input|box)$/i.test(name);
}

export function fillPairs(pairs: FieldValuePair[], context: ReadingContext): Reading {
  const plan: PlanStep[] = [];
  for (const pair of pairs) {
    const reading = valueInto('fill', pair.value, pair.field, context);
    if (reading.kind !== 'steps') return reading;
    plan.push(...reading.steps);
  }
  return steps(plan);
}

/** "fill in the form with valid data" names no field: it is asked about, not typed into a field called "form". */
function withoutForm(match: Array<string | undefined> | undefined): Array<string | undefined> | undefined {
  return match !== undefined && /\bform$/i.test(trimPunctuation(match[1]!)) ? undefined : match;
}

/** FIELD_WITH names the field first: put the value first like the other shapes. */
function swap(match: Array<string | undefined> | undefined): Array<string | undefined> | undefined {
  return match === undefined ? undefined : [match[0], match[2], match[1]];
}

function valueInto(action: 'fill' | 'select', valuePhrase: string, fieldPhrase: string, context: ReadingContext): Reading {
  // "from the dropdown menu": the select list there, not a button called "dropdown".
  const target = (action === 'select' ? bareFieldTarget(fieldPhrase) : undefined) ?? readTarget(fieldPhrase, 'field') ?? bareFieldTarget(fieldPhrase);
  if (target === undefined) return UNKNOWN;
  const value = resolveValue(valuePhrase, context);
  if (!('value' in value)) return value.reading;
  const description =
    action === 'fill' ? `Fill ${describeTarget(target)} with ${describeValue(value.value)}` : `Select ${describeValue(value.value)} in ${describeTarget(target)}`;
  return steps([{ action, description, target, value: value.value }]);
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
