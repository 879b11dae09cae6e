/**
 * The shapes of an assertion's body (what follows "check that", "verify", "make sure", or a bare "the Plans heading
 * is visible"), each turned into one expect step and the steps it needs first:
 *
 * | body | step |
 * |---|---|
 * | the URL contains /orders · we land on the orders page | expectUrl |
 * | 3 plans · there are three plans on the pricing page · the pricing page lists three plans | expectCount (items of the list named "plans") |
 * | the Place order button is disabled · Apple Pay is offered · the FAQ is not shown · X appears | expectState |
 * | the page says 'Order confirmed' · the total shows $90 · its status is Shipped | expectText |
 * | the heading says 'Pricing' · the main heading is "Pricing" · the button says 'Buy now' | expectText among the page's elements of that role |
 * | the title is "Pricing" · the page title contains Demo Shop | expectTitle |
 * | the Email field contains "a@b.test" · the value of the Quantity field is 2 · the Coupon field is empty | expectValue |
 * | the footer links to the privacy policy | expectState visible of the link |
 * | the refund policy page loads · it returns 200 | expectUrl of that page (opened first if the plan is elsewhere) |
 * | the email field rejects "abc" | fill, then expectState invalid |
 *
 * An assertion about a named page ("the pricing page lists …", "… on the payment page") opens that page first when
 * the plan has no step yet or its last step opened another page; after a click the plan assumes it is there.
 */
import { bareFieldTarget, bareKindTarget } from './bare-fields.js';
import type { PlanStep, Target } from '../core/plan.js';
import { isPagePhrase, pagePath } from './pages.js';
import type { ReadingContext } from './reading.js';
import { elementNounTarget } from './element-nouns.js';
import { landedReached, openedReached } from './page-reached.js';
import { expectationSubject } from './expectation-subjects.js';
import { describeTarget, readTarget } from './targets.js';
import { describeValue, readValue } from './values.js';
import { matchOutsideQuotes, NUMBER, numberOf, stripDeterminers, trimPunctuation, unquote, withoutQuotes } from './words.js';

export type AssertionStep = Extract<PlanStep, { action: 'expectText' | 'expectTitle' | 'expectValue' | 'expectUrl' | 'expectState' | 'expectCount' }>;
type State = Extract<PlanStep, { action: 'expectState' }>['state'];

export interface Form {
  before: PlanStep[];
  check: AssertionStep;
  assumptions: string[];
}

type Reader = (body: string, context: ReadingContext) => Form | undefined;

/** Nouns that count a list's items without naming the list ("the Plans list has 4 items"). */
const ITEM_NOUN = /^(?:items?|entries|entry|rows?|elements?|things?|results?|options?|cards?|lines?|products?)$/i;
const NOT_A_COUNT = /^(?:dollars?|euros?|pounds?|cents?|usd|eur|gbp|percent|%|px|pixels?|seconds?|secs?|ms|minutes?|hours?|days?|stars?|per\s+.*)\b/i;
const SEEN = '(?:visible|shown|displayed|present|listed|there|offered|available|on (?:the )?(?:page|screen))';
const STATES: ReadonlyArray<[RegExp, State, State]> = [
  [new RegExp(`^${SEEN}$`, 'i'), 'visible', 'hidden'],
  [/^(?:hidden|invisible|gone|absent|missing)$/i, 'hidden', 'visible'],
  [/^(?:enabled|clickable|active)$/i, 'enabled', 'disabled'],
  [/^(?:disabled|gr[ae]yed[ -]out|inactive)$/i, 'disabled', 'enabled'],
  [/^(?:checked|ticked|selected)$/i, 'checked', 'unchecked'],
  [/^(?:highlighted|current|the current one|the selected one|applied|chosen)$/i, 'selected', 'unselected'],
  [/^(?:unchecked|unticked|unselected)$/i, 'unchecked', 'checked'],
  [/^(?:valid|accepted)$/i, 'valid', 'invalid'],
  [/^(?:invalid|rejected)$/i, 'invalid', 'valid'],
];
const STATE_WORDS = `${SEEN}|highlighted|current|the current one|the selected one|applied|chosen|hidden|invisible|gone|absent|missing|enabled|clickable|active|disabled|gr[ae]yed[ -]out|inactive|checked|ticked|selected|unchecked|unticked|unselected|valid|accepted|invalid|rejected`;
const PAGE_SUBJECT = /^(?:the\s+)?(?:page|screen|site|app|application|website|browser|it|this page|this|that|result|response)$/i;

const url: Reader = (body) => {
  const direct = matchOutsideQuotes(
    body,
    /^(?:the\s+)?(?:current\s+|page(?:'s)?\s+|browser(?:'s)?\s+)?(?:url|address|location|path)\s+(?:now\s+)?(?:contains|includes|has|is|equals|ends with|matches|reads|shows|starts with)\s+(.+?)(?:\s+now)?$/i,
  );
  const landed = matchOutsideQuotes(
    body,
    /^(?:i|we|you|the user|it|the page|the browser|the app|the site|they|he|she)\s+(?:(?:am|is|are|gets?) (?:redirected|taken|sent|brought|returned)|(?:takes|brings|leads|sends|returns|redirects)\s+(?:me|you|us|them|the user)|am|are|is|lands?|ends? up|gets?|goes|go|redirects?|navigates?|arrives?)\s+(?:back\s+)?(?:on|at|to|in)\s+(.+)$/i,
  );
  const raw = direct?.[1] ?? landed?.[1];
  if (raw === undefined) return undefined;
  const text = withoutQuotes(trimPunctuation(raw));
  const contains = (landed !== undefined || isPagePhrase(text) ? pagePath(text) : undefined) ?? text;
  if (contains === '') return undefined;
  return form([], expectUrl(contains, landed !== undefined ? namedPage(text) : undefined, landed !== undefined ? landedReached(body) : undefined));
};

const count: Reader = (body, context) => {
  const counted = matchOutsideQuotes(
    body,
    new RegExp(
      `^(?:there\\s+(?:are|is)\\s+(?:now\\s+|still\\s+)?|(?:i|we|you)\\s+(?:can\\s+)?see\\s+)?(?:exactly\\s+)?(${NUMBER})\\s+(.+?)(?:\\s+(?:are|is)\\s+${SEEN}|\\s+(?:show|shows|appear|appears|exist|exists|show up|shows up|load|display))?(?:\\s+(?:on|in|under)\\s+(.+))?$`,
      'i',
    ),
  );
  const listed = matchOutsideQuotes(
    body,
    new RegExp(`^(.+?)\\s+(?:lists|shows|displays|has|contains|includes|offers|returns|have|show|list|display|contain)\\s+(?:exactly\\s+)?(${NUMBER})\\s+(.+?)$`, 'i'),
  );
  const [number, noun, place] = counted !== undefined ? [counted[1], counted[2], counted[3]] : [listed?.[2], listed?.[3], listed?.[1]];
  if (number === undefined || noun === undefined || NOT_A_COUNT.test(noun)) return undefined;
  const name = stripDeterminers(withoutQuotes(trimPunctuation(noun)));
  const amount = numberOf(number);
  if (name === '' || amount === undefined) return undefined;
  // "the Plans list has 4 items": the items of the list the place names, not a list named "items".
  const placed = ITEM_NOUN.test(name) && place !== undefined ? readTarget(place, 'text') : undefined;
  if (placed?.by === 'role' && placed.role === 'list') return form([], expectItems(placed, amount));
  // "one Delete button", "two Remove buttons": controls counted, not the items of a list of that name.
  const control = /\s(?:buttons?|links?|check ?box(?:es)?|images?|headings?|tabs?)$/i.test(name) ? readTarget(name.replace(/s$/i, ''), 'text') : undefined;
  if (control !== undefined && control.by === 'role') return form(openPage(place, context), { action: 'expectCount', description: `Expect ${amount} of ${describeTarget(control)}`, target: control, count: amount });
  const target: Target = { by: 'role', role: 'list', name, exact: unquote(trimPunctuation(noun)) !== undefined };
  return form(openPage(place, context), expectItems(target, amount));
};

function expectItems(target: Target, amount: number): AssertionStep {
  return { action: 'expectCount', description: `Expect ${amount} item${amount === 1 ? '' : 's'} in ${describeTarget(target)}`, target, itemRole: 'listitem', count: amount };
}

/** A field said to be empty ("the Coupon field is empty"): its value is the empty text. */
const emptyField: Reader = (body) => {
  const match = matchOutsideQuotes(body, /^(.+?)\s+(?:is|are)\s+(?:now\s+|still\s+)?(?:empty|blank|cleared)(?:\s+now)?$/i);
  const subject = match === undefined ? undefined : expectationSubject(match[1]!);
  return subject?.kind === 'field' ? form([], expectValue(subject.target, '')) : undefined;
};

const validation: Reader = (body, context) => {
  const match = matchOutsideQuotes(body, /^(.+?)\s+(rejects|refuses|does not accept|doesn't accept|accepts|allows)\s+(.+)$/i);
  if (match === undefined) return undefined;
  const field = readTarget(match[1]!, 'field');
  const value = readValue(match[3]!, context.testValueNames);
  if (field === undefined || value.kind !== 'value') return undefined;
  const state: State = /^(?:accepts|allows)$/i.test(match[2]!) ? 'valid' : 'invalid';
  const fill: PlanStep = { action: 'fill', description: `Fill ${describeTarget(field)} with ${describeValue(value.value)}`, target: field, value: value.value };
  return form([fill], expectState(field, state));
};

const state: Reader = (body, context) => {
  const stated = matchOutsideQuotes(body, new RegExp(`^(.+?)\\s+(?:is|are)\\s+(?:now\\s+|still\\s+|also\\s+)?(not\\s+)?(${STATE_WORDS})\\b(.*)$`, 'i'));
  const appears = matchOutsideQuotes(
    body,
    /^(.+?)\s+(does not |doesn't |do not |don't )?(?:appears?|shows? up|is showing|are showing|exists?|pops? up|comes? up)\b(.*)$/i,
  );
  const there = matchOutsideQuotes(body, /^(?:there\s+(?:is|are)|there's|(?:i|we|you)\s+(?:can\s+)?see)\s+(no\s+)?(.+)$/i);
  const none = matchOutsideQuotes(body, new RegExp(`^no\\s+(.+?)\\s+(?:is|are)\\s+${SEEN}(.*)$`, 'i'));
  let subject: string | undefined;
  let result: State | undefined;
  let tail = '';
  if (stated !== undefined) {
    const entry = STATES.find(([pattern]) => pattern.test(stated[3]!));
    if (entry === undefined) return undefined;
    [subject, result, tail] = [stated[1], stated[2] === undefined ? entry[1] : entry[2], stated[4] ?? ''];
  } else if (appears !== undefined) {
    [subject, result, tail] = [appears[1], appears[2] === undefined ? 'visible' : 'hidden', appears[3] ?? ''];
  } else if (there !== undefined) {
    [subject, result] = [there[2], there[1] === undefined ? 'visible' : 'hidden'];
  } else if (none !== undefined) {
    [subject, result, tail] = [none[1], 'hidden', none[2] ?? ''];
  }
  if (subject === undefined || result === undefined || PAGE_SUBJECT.test(subject.trim())) return undefined;
  const place = /\bon\s+(the\s+.+?\s+(?:page|screen))\b/i.exec(tail)?.[1];
  const { target, before } = subjectTarget(subject, place, context);
  if (target === undefined) return undefined;
  return form(before, expectState(target, chosenOrTicked(target, result)));
};

/**
 * "Selected" of a box is ticked; of anything else (a filter, a tab, a link, a row) it is chosen among its siblings:
 * `aria-selected`, `aria-current`, or the class a page marks it with.
 */
function chosenOrTicked(target: Target, state: State): State {
  if (state !== 'checked' && state !== 'unchecked') return state;
  const box = target.by === 'label' || target.by === 'placeholder' || ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(target.role ?? '');
  if (box || (target.by === 'text' && target.role === undefined)) return state;
  if (target.by === 'description' || ['link', 'tab', 'button', 'option', 'row', 'listitem', 'menuitem', 'treeitem', 'gridcell'].includes(target.role ?? '')) {
    return state === 'checked' ? 'selected' : 'unselected';
  }
  return state;
}

const loads: Reader = (body, context) => {
  const match = matchOutsideQuotes(
    body,
    /^(.+?)\s+(?:loads|opens|works|renders|is reachable|is up|responds|succeeds|returns\s+(?:an?\s+)?(?:http\s+)?(?:2\d\d|ok|success)(?:\s+status)?)(?:\s+(?:fine|correctly|properly|successfully|ok|without (?:any )?errors?))?$/i,
  );
  // "the Products page shows", "the order complete page appears", "the overview comes up": being on that page.
  const shown = match === undefined ? matchOutsideQuotes(body, /^(.+?)\s+(?:shows|appears|comes up|shows up|is shown|is displayed|is open|is opened|displays)(?:\s+(?:again|now|up))?$/i) : undefined;
  if (shown !== undefined && !isPagePhrase(trimPunctuation(shown[1]!))) return undefined;
  if (match === undefined && shown === undefined) return undefined;
  const subject = trimPunctuation((match ?? shown)![1]!);
  if (isPagePhrase(subject)) {
    const path = pagePath(subject);
    if (path === undefined) return undefined;
    const here = context.last?.action === 'navigate' && context.last.url === path;
    // After a click the page it led to is the one said to open: looked at, not opened again.
    const led = context.last !== undefined && ['click', 'dblclick', 'press'].includes(context.last.action);
    const before: PlanStep[] = here || led ? [] : [navigate(path)];
    return form(before, expectUrl(path, namedPage(subject), led ? openedReached(subject) : undefined));
  }
  const last = context.visited.at(-1);
  if (PAGE_SUBJECT.test(subject) && last !== undefined) {
    return form([], expectUrl(last), [`Reads "${body}" as: ${last} opens (an HTTP error there is a finding of its own).`]);
  }
  const target = readTarget(subject, 'text');
  return target === undefined ? undefined : form([], expectState(target, 'visible'));
};

const links: Reader = (body) => {
  const match = matchOutsideQuotes(body, /^(.+?)\s+(?:links?|points?)\s+to\s+(.+)$/i);
  if (match === undefined) return undefined;
  const target = readTarget(stripDeterminers(match[2]!), 'link');
  if (target === undefined) return undefined;
  const link: Target = target.by === 'role' && target.role !== 'link' ? target : { ...target, by: 'role', role: 'link' };
  return form([], expectState(link, 'visible'));
};

const text: Reader = (body, context) => {
  const negative = matchOutsideQuotes(body, /^(.+?)\s+(?:does not|doesn't|do not|don't)\s+(?:say|show|display|contain|include|mention|list|read)\s+(?:the\s+text\s+)?(.+)$/i);
  if (negative !== undefined) {
    const shown = withoutQuotes(trimPunctuation(negative[2]!));
    return shown === '' ? undefined : form([], expectState({ by: 'text', name: shown, exact: unquote(trimPunctuation(negative[2]!)) !== undefined }, 'hidden'));
  }
  const says = matchOutsideQuotes(
    body,
    /^(.+?)\s+(?:says|shows|displays|reads|contains|includes|mentions|prints|lists|holds|has the text|shows the text|says the text|has the value|has a value of|shows the value)\s+(.+)$/i,
  );
  const equals = matchOutsideQuotes(body, /^(.+?)\s+(?:is|equals|is equal to|totals|comes to|amounts to|=)\s+(.+)$/i);
  const match = says ?? (equals !== undefined && literalLike(equals[2]!) ? equals : undefined);
  if (match === undefined) return undefined;
  const subject = trimPunctuation(match[1]!);
  const raw = trimPunctuation(match[2]!);
  const quoted = unquote(raw) !== undefined;
  const shown = quoted ? withoutQuotes(raw) : stripDeterminers(raw);
  if (shown === '') return undefined;
  const assumptions = literalLike(raw) ? [] : [`Reads "${body}" as: the page shows the text ${JSON.stringify(shown)}.`];

  // The title, "the heading", "the Email field": the expectation is about that element's text or value.
  const about = expectationSubject(subject);
  if (about?.kind === 'title') return form([], expectTitle(shown), assumptions);
  if (about?.kind === 'role') return form([], expectTextAmong(about.role, shown), assumptions);
  if (about?.kind === 'field') return form([], expectValue(about.target, shown), assumptions);
  if (PAGE_SUBJECT.test(subject) || isPagePhrase(subject) || /^(?:its|their|his|her)\s/i.test(subject)) {
    return form(isPagePhrase(subject) ? openPage(subject, context) : [], expectText(shown), assumptions);
  }
  // "the cart badge shows 1": that element's text, found by what it is, not a "1" anywhere on the page.
  const target = elementNounTarget(subject) ?? readTarget(subject, 'text');
  const scoped = target !== undefined && target.by !== 'text' ? target : undefined;
  return form([], expectText(shown, scoped), assumptions);
};

/** Tried in this order: the first shape that fits the body wins. */
export const FORMS: readonly Reader[] = [url, count, validation, loads, links, emptyField, text, state];

/** A value written as it will appear: quoted, with a digit or currency sign, or a short capitalised label. */
function literalLike(raw: string): boolean {
  const text = trimPunctuation(raw);
  if (unquote(text) !== undefined || /[\d$€£%]/.test(text)) return true;
  return /^[A-Z]/.test(text) && text.split(/\s+/).length <= 6 && !/^(?:The|A|An|My|Our|Your|Their|This|That)\s/.test(text);
}

/** The target an assertion's subject names; a subject that is a page opens it first. */
function subjectTarget(subject: string, place: string | undefined, context: ReadingContext): { target?: Target; before: PlanStep[] } {
  const text = trimPunctuation(subject).replace(/\s+(?:on|in)\s+the\s+.+?\s+(?:page|screen)$/i, '');
  const inline = /\s+(?:on|in)\s+(the\s+.+?\s+(?:page|screen))$/i.exec(trimPunctuation(subject))?.[1];
  return { target: elementNounTarget(text) ?? bareFieldTarget(text) ?? readTarget(text, 'text') ?? bareKindTarget(text), before: openPage(place ?? inline, context) };
}

/** A navigate step to the page `phrase` names, when the plan is not known to be there already. */
function openPage(phrase: string | undefined, context: ReadingContext): PlanStep[] {
  if (phrase === undefined || !isPagePhrase(phrase)) return [];
  const path = pagePath(phrase);
  if (path === undefined) return [];
  const elsewhere = context.last?.action === 'navigate' && context.last.url !== path;
  return context.stepCount === 0 || elsewhere ? [navigate(path)] : [];
}

function form(before: PlanStep[], check: AssertionStep, assumptions: string[] = []): Form {
  return { before, check, assumptions };
}

function navigate(path: string): PlanStep {
  return { action: 'navigate', description: `Go to ${path}`, url: path };
}

function expectUrl(contains: string, page?: string, reached?: 'back' | 'new'): AssertionStep {
  if (page === undefined) return { action: 'expectUrl', description: `Expect the URL to contain ${JSON.stringify(contains)}`, contains };
  // A page said by how it was reached (./page-reached.ts): the run may also find it by where the page has been.
  if (reached === 'back') return { action: 'expectUrl', description: `Expect to be back on the ${page} page (the URL contains ${JSON.stringify(contains)}, the page shows "${page}", or it is the page before the one just left)`, contains, page, reached };
  if (reached === 'new') return { action: 'expectUrl', description: `Expect the ${page} page to open (the URL contains ${JSON.stringify(contains)}, the page shows "${page}", or the last action led to a page of its own)`, contains, page, reached };
  return { action: 'expectUrl', description: `Expect to be on the ${page} page (the URL contains ${JSON.stringify(contains)} or the page shows "${page}")`, contains, page };
}

/** "the Products page" → "Products"; undefined for a path, a URL or a place every app has at its usual path. */
function namedPage(phrase: string): string | undefined {
  const text = withoutQuotes(trimPunctuation(phrase));
  if (/^(?:https?:\/\/|\/)/i.test(text)) return undefined;
  const name = withoutQuotes(stripDeterminers(text).replace(/\s+(?:page|screen|view|section|area)$/i, '').trim());
  return name === '' || /^(?:it|this|that|there|here)$/i.test(name) ? undefined : name.slice(0, 200);
}

function expectText(shown: string, target?: Target): AssertionStep {
  return target === undefined
    ? { action: 'expectText', description: `Expect the page to show ${JSON.stringify(shown)}`, text: shown }
    : { action: 'expectText', description: `Expect ${describeTarget(target)} to show ${JSON.stringify(shown)}`, text: shown, target };
}

function expectTextAmong(role: string, shown: string): AssertionStep {
  return { action: 'expectText', description: `Expect a ${ROLE_NOUNS[role] ?? role} to show ${JSON.stringify(shown)}`, text: shown, role };
}

function expectTitle(shown: string): AssertionStep {
  return { action: 'expectTitle', description: `Expect the page title to contain ${JSON.stringify(shown)}`, text: shown };
}

function expectValue(target: Target, value: string): AssertionStep {
  return { action: 'expectValue', description: value === '' ? `Expect ${describeTarget(target)} to be empty` : `Expect ${describeTarget(target)} to hold ${JSON.stringify(value)}`, target, text: value };
}

const ROLE_NOUNS: Readonly<Record<string, string>> = { img: 'image', menuitem: 'menu item' };

function expectState(target: Target, state: State): AssertionStep {
  return { action: 'expectState', description: `Expect ${describeTarget(target)} to be ${state}`, target, state };
}
