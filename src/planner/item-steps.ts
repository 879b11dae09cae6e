/**
 * Clauses about the items of a list, as people write tests of list apps: "add the todos 'buy milk', 'feed the cat'
 * and 'pay rent'", "create a note called Groceries", "mark the second todo as completed", "tick the checkbox of Pay
 * rent", "check that the list shows 'buy milk' and 'pay rent' only", "check that both are completed". Items the task
 * created are remembered (`ReadingContext.items`), so "the second todo", "it" and "each of them" refer back to them;
 * an item the task never named is found on the page by its position (`nth`).
 *
 * Where an item is added is the page's business: the plan says "the field for new todos" and grounding finds it on the
 * live page (src/core/grounding.ts), with Enter to add, as list apps do.
 */
import type { PlanStep, Target } from '../core/plan.js';
import { readItemPart } from './item-parts.js';
import { readItemStates } from './item-states.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { normalise } from './assertions.js';
import { describeTarget, readTarget } from './targets.js';
import { maskQuotes, matchOutsideQuotes, NUMBER, numberOf, slugKey, stripDeterminers, trimPunctuation, unquote } from './words.js';

/** Nouns of things a list holds. */
const ITEM_NOUNS = 'to-?dos?|todo items?|tasks?|items?|entries|entry|notes?|reminders?|cards?|projects?|tags?|rows?|records?|comments?|posts?|contacts?|things?|issues?|tickets?|bookmarks?|ideas?|goals?|events?';
const ORDINALS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, last: -1, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5 };
const ORDINAL = Object.keys(ORDINALS).join('|');
const LEAD = /^(?:check|verify|ensure|make sure|be sure|confirm|assert|expect|validate|see|test)(?:\s+(?:that|whether|if))?\s+(.+)$/i;
const CART = /\b(?:cart|basket|bag|trolley|wish ?list|favou?rites)\b/i;

/** An item a phrase refers to: its text (quoted, named earlier or plain), or its position on the page. */
export type ItemRef = { text: string } | { nth: number };

/** Reads the clause as one about list items, or undefined when it is not one. */
export function readItemClause(clause: string, context: ReadingContext): Reading | undefined {
  const plain = clause.replace(TAIL, '');
  return addItems(plain, context) ?? markItems(plain, context) ?? readItemPart(plain, context) ?? readItemStates(plain, context) ?? listExpectation(plain, context);
}

/** Words at the end that add nothing to do: "add 'b' the same way", "tick it as well", "… any more". */
const TAIL = /(?:,?\s+(?:the same way|in the same way|as well|too|also|again|once more|any ?more|straight away|right away))+\s*$/i;

/** "add the todos 'a', 'b' and 'c'", "create a note called 'x'", "add 'a' and 'b' to the list". */
function addItems(whole: string, context: ReadingContext): Reading | undefined {
  // "With the todos 'a' and 'b' added, …": the same as adding them.
  const having = /^(?:with|having|after adding)\s+(.+?)(?:\s+(?:added|created|in place|on the list|in the list))$/i.exec(whole);
  if (having !== null && !/^add\b/i.test(whole)) return addItems(`add ${having[1]!}`, context);
  // "… by typing it into the 'What needs to be done?' field and pressing Enter": how, and into which field.
  const method = matchOutsideQuotes(whole, /^(.+?)\s+by\s+(?:typing|entering|writing|putting)\s+(?:it|them)\s+(?:in|into)\s+(.+?)(?:\s+and\s+(?:pressing|hitting)\s+(?:enter|return))?$/i);
  const clause = method?.[1] ?? whole;
  const into = method === undefined ? undefined : readTarget(method[2]!, 'field');
  const noun = matchOutsideQuotes(
    clause,
    new RegExp(
      `^(?:add|create|make|insert)\\s+(?:(?:the|these|those|following|some|a|an|one|two|three|four|five|six|\\d+|second|third|another|one more)\\s+)*(?:(?:new|more|other|default|following)\\s+)*(${ITEM_NOUNS})\\s*(?:called|named|titled|saying|that says|with the (?:text|title|name)|:|,|(?:,\\s*)?one after the other\\s*[:,]?)?\\s+(.+)$`,
      'i',
    ),
  );
  const bare =
    noun === undefined
      ? matchOutsideQuotes(clause, /^(?:add|create|put)\s+(.+?)(?:\s+(?:to|into|on|as)\s+(?:the\s+|a\s+|my\s+)?(?:list|to-?do list|to-?dos?|items?|tasks?|entries|new \w+))?$/i)
      : undefined;
  if (bare !== undefined && !splitList(bare[1]!).every((part) => unquote(part) !== undefined)) return undefined;
  const kind = noun === undefined ? 'item' : singular(noun[1]!);
  const listed = noun?.[2] ?? bare?.[1];
  if (listed === undefined || CART.test(maskQuotes(clause))) return undefined;
  const texts = splitList(listed.replace(/\s+(?:to|into|in|on)\s+(?:the\s+|my\s+)?(?:list|to-?do list)$/i, '')).map((item) => unquote(item) ?? stripDeterminers(item));
  if (texts.length === 0 || texts.some((text) => text === '' || text.length > 300)) return undefined;
  // Unquoted, a single name is only an item when it reads as one ("add a todo buy milk"), not as a sentence.
  if (noun === undefined && texts.some((text) => /^(?:to|into|in|on|it|them)\b/i.test(text))) return undefined;
  const field: Target = into ?? { by: 'description', role: 'textbox', name: `new ${kind}`, exact: false };
  const added: PlanStep[] = texts.flatMap((text): PlanStep[] => [
    { action: 'fill', description: `Type ${JSON.stringify(text)} into ${describeTarget(field)}`, target: field, value: { kind: 'literal', text } },
    { action: 'press', description: `Press Enter to add ${JSON.stringify(text)}`, key: 'Enter' },
  ]);
  return { kind: 'steps', steps: added, criteria: [], assumptions: [`Adds each ${kind} by typing it into the page's field for new ${kind}s and pressing Enter.`], items: texts };
}

/**
 * "mark the second todo as completed", "mark 'a' and 'b' as done", "complete 'a'", "tick the checkbox of Pay rent",
 * "untick 'buy milk'", "mark it as active".
 */
function markItems(clause: string, context: ReadingContext): Reading | undefined {
  const marked = matchOutsideQuotes(clause, /^(?:mark|set|flag|toggle|switch)\s+(.+?)\s+as\s+(?:being\s+)?(not\s+)?(complete|completed|done|finished|checked|ticked|active|incomplete|uncompleted|not done|undone|open|unchecked|pending|to ?do)$/i);
  const checkbox = matchOutsideQuotes(clause, /^(tick|check|untick|uncheck|un-check|un-tick|click|toggle|select|deselect|clear)\s+(?:on\s+)?(?:the\s+)?(?:check ?box|tick ?box|toggle)\s+(?:of|for|next to|beside|by|in front of|in the row of|on)\s+(.+)$/i);
  const possessive = matchOutsideQuotes(clause, /^(tick|check|untick|uncheck|un-check|un-tick|click|toggle)\s+(?:on\s+)?(.+?)(?:'s|’s)\s+(?:check ?box|tick ?box|toggle)$/i);
  const verb = matchOutsideQuotes(clause, /^(complete|finish|tick off|check off|cross off|un-?complete|reopen|tick|untick|un-tick|check|uncheck|un-check)\s+(.+)$/i);
  let phrase: string | undefined;
  let checked = true;
  if (marked !== undefined) {
    phrase = marked[1];
    checked = marked[2] === undefined && /^(?:complete|completed|done|finished|checked|ticked)$/i.test(marked[3]!);
  } else if (checkbox !== undefined || possessive !== undefined) {
    const [, action = '', what = ''] = checkbox ?? possessive!;
    phrase = what;
    checked = !/^(?:untick|uncheck|un-check|un-tick|deselect|clear)$/i.test(action);
    if (/^(?:click|toggle)$/i.test(action)) return itemSteps(what, context, (target, text) => ({ action: 'click', description: `Click the checkbox of ${text}`, target }));
  } else if (verb !== undefined) {
    phrase = verb[2];
    checked = !/^(?:un-?complete|reopen|untick|un-tick|uncheck|un-check)$/i.test(verb[1]!);
    // "complete the form", "finish the checkout" are not items; "tick 'I agree'" is a box by its label.
    if (!isItemPhrase(phrase!, context)) return undefined;
    if (/^(?:tick|untick|un-tick|check|uncheck|un-check)$/i.test(verb[1]!) && !refersBack(phrase!, context)) return undefined;
  }
  if (phrase === undefined) return undefined;
  return itemSteps(phrase, context, (target, text) => ({ action: 'check', description: `${checked ? 'Check' : 'Uncheck'} the checkbox of ${text}`, target, checked }));
}

/**
 * "the list shows 'a' and 'b' only", "the todos are 'a', 'b' and 'c'", "only 'a' and 'c' are shown", "'a' and 'b' are
 * listed in that order", "'a' and 'b' are completed", "each of them is marked as done", "the second todo is not done".
 */
function listExpectation(clause: string, context: ReadingContext): Reading | undefined {
  // "…, leaving only 'a' and 'b'": what is left is all the list shows.
  const leaving = matchOutsideQuotes(clause, /^leaving\s+(only\s+|just\s+)?(.+?)(?:\s+(?:in|on)\s+the\s+list)?$/i);
  if (leaving !== undefined) return listExpectation(`check that ${leaving[1] ?? ''}${leaving[2]!} are left`, context);
  const lead = matchOutsideQuotes(clause, LEAD);
  // "that 'a' is done" drops its "that"; "that todo is done" keeps it: "that todo" is the one spoken of.
  const body = normalise(trimPunctuation(lead?.[1] ?? clause).replace(new RegExp(`^that\\s+(?!(?:${ITEM_NOUNS})\\s+(?:is|are|should|must|was|were|has|will)\\b)`, 'i'), '').replace(/\b(it|that|this|there|he|she)'s\b/gi, '$1 is')).replace(/\s+(?:is|are)\s+(?:marked|shown|displayed)\s+as\s+/i, ' is ');
  const none = matchOutsideQuotes(body, new RegExp(`^(?:none|neither|no)(?:\\s+of)?(?:\\s+(?:them|the|these|those|my))?(?:\\s+${NUMBER})?(?:\\s+(?:${ITEM_NOUNS}))?\\s+(?:is|are)\\s+(?:now\\s+|still\\s+)?(complete|completed|done|finished|checked|ticked)$`, 'i'));
  if (none !== undefined && context.items.length > 0) {
    const reading = itemSteps('all', context, (target, text) => ({ action: 'expectState', description: `Expect ${text} to be not completed (its checkbox unchecked)`, target, state: 'unchecked' }));
    return reading === undefined ? undefined : withCriterion(reading, body);
  }
  const onlyOne = matchOutsideQuotes(body, new RegExp(`^(.+?)\\s+is\\s+(?:now\\s+|still\\s+)?the\\s+only\\s+(?:one|${ITEM_NOUNS})(?:\\s+(?:in|on)\\s+the\\s+(?:list|page))?$`, 'i'));
  if (onlyOne !== undefined) {
    const refs = itemRefs(onlyOne[1]!, context);
    if (refs !== undefined && refs.length === 1 && 'text' in refs[0]!) {
      const text = refs[0].text;
      return withCriterion(steps([{ action: 'expectItems', description: `Expect the list to show only ${JSON.stringify(text)}`, target: listShowing(text), itemRole: 'listitem', texts: [text], only: true, ordered: false }]), body);
    }
  }
  const left = matchOutsideQuotes(body, new RegExp(`^(?:only\\s+|just\\s+|exactly\\s+)?(${NUMBER})\\s+(?:${ITEM_NOUNS})\\s+(?:is|are|remains?)\\s+(?:still\\s+|now\\s+)?(?:left|shown|listed|remaining|there|visible)\\s*(?::|,|-)\\s*(.+)$`, 'i'));
  if (left !== undefined) {
    const refs = itemRefs(left[2]!, context);
    if (refs !== undefined && refs.every((ref) => 'text' in ref) && refs.length === numberOf(left[1]!)) {
      const texts = refs.map((ref) => (ref as { text: string }).text);
      return withCriterion(steps([{ action: 'expectItems', description: `Expect the list to show only ${texts.map((text) => JSON.stringify(text)).join(', ')}`, target: listShowing(texts[0]!), itemRole: 'listitem', texts, only: true, ordered: false }]), body);
    }
  }
  // "only 1 todo should be listed", "it lists just one todo", "where 2 items are shown": the items of the list counted.
  const counted = context.items.length === 0 ? undefined : matchOutsideQuotes(
    body.replace(/^(?:where|in which|and there)\s+/i, ''),
    new RegExp(
      `^(?:(?:it|the\\s+(?:to-?do\\s+)?list|the\\s+view|this\\s+view|the\\s+page)\\s+(?:now\\s+|still\\s+|then\\s+)?(?:shows?|lists?|has|contains?|displays?)\\s+(?:only\\s+|just\\s+|exactly\\s+)?(${NUMBER})\\s+(?:${ITEM_NOUNS})|(?:only\\s+|just\\s+|exactly\\s+)?(${NUMBER})\\s+(?:${ITEM_NOUNS})\\s+(?:is|are)\\s+(?:now\\s+|still\\s+)?(?:listed|shown|displayed|visible|left|there|in the list))$`,
      'i',
    ),
  );
  const amount = counted === undefined ? undefined : numberOf((counted[1] ?? counted[2])!);
  if (amount !== undefined) {
    // The list with no name: on the live page, the one that is not a menu of links (src/core/grounding.ts).
    const list: Target = { by: 'role', role: 'list', name: '', exact: false };
    return withCriterion(steps([{ action: 'expectCount', description: `Expect the list to show ${amount} item${amount === 1 ? '' : 's'}`, target: list, itemRole: 'listitem', count: amount }]), body);
  }
  // "that todo should be removed", "'a' is gone": no element shows its text any more.
  const removed = matchOutsideQuotes(body, /^(.+?)\s+(?:is|are|has been|have been)\s+(?:now\s+)?(?:removed|deleted|gone|not (?:shown|listed|displayed|there|visible|in the list|on the list)(?:\s+any ?more)?)(?:\s+from\s+the\s+list)?$/i);
  if (removed !== undefined) {
    const refs = itemRefs(removed[1]!, context);
    // Items the task made or spoke of; any other text said to be gone is the assertion reader's ("'Loading...' is gone").
    if (refs !== undefined && refs.length > 0 && refs.every((ref) => 'text' in ref && context.items.includes(ref.text))) {
      const gone = refs.map((ref): PlanStep => {
        const text = (ref as { text: string }).text;
        return { action: 'expectState', description: `Expect ${JSON.stringify(text)} to be gone from the list`, target: { by: 'text', name: text, exact: true }, state: 'hidden' };
      });
      return withCriterion(steps(gone), body);
    }
  }
  // "… while the second one isn't": the state just checked, not holding for this one.
  const elliptic = matchOutsideQuotes(body, /^(.+?)\s+(?:is|are)\s+not$/i);
  const last = context.last;
  if (elliptic !== undefined && last?.action === 'expectState' && (last.state === 'checked' || last.state === 'unchecked')) {
    const state = last.state === 'checked' ? 'unchecked' : 'checked';
    const reading = itemSteps(elliptic[1]!, context, (target, text) => ({ action: 'expectState', description: `Expect ${text} to be ${state === 'checked' ? 'completed' : 'not completed'}`, target, state }));
    return reading === undefined ? undefined : withCriterion(reading, body);
  }
  // "only it is completed": that one checked, every other item the task added not.
  const onlyDone = matchOutsideQuotes(body, /^only\s+(.+?)\s+(?:is|are)\s+(?:now\s+)?(complete|completed|done|finished|checked|ticked)$/i);
  if (onlyDone !== undefined) {
    const refs = itemRefs(onlyDone[1]!, context);
    if (refs !== undefined && refs.every((ref) => 'text' in ref) && context.items.length > 0) {
      const done = new Set(refs.map((ref) => (ref as { text: string }).text));
      const made = context.items.map((item): PlanStep => ({
        action: 'expectState',
        description: `Expect ${JSON.stringify(item)} to be ${done.has(item) ? 'completed' : 'not completed'}`,
        target: { by: 'role', role: 'checkbox', name: '', exact: false, within: { text: item } },
        state: done.has(item) ? 'checked' : 'unchecked',
      }));
      const reading = withCriterion(steps(made), body);
      return done.size === 1 && reading.kind === 'steps' ? { ...reading, subject: [...done][0]! } : reading;
    }
  }
  const state = matchOutsideQuotes(
    body,
    /^(.+?)\s+(?:is|are)\s+(?:now\s+|still\s+|all\s+|both\s+)?(?:(?:shown|displayed|marked)\s+(?:as\s+)?)?(not\s+)?(complete|completed|done|finished|checked|ticked|active|incomplete|uncompleted|unchecked|open|pending)$/i,
  );
  if (state !== undefined && (lead !== undefined || isItemPhrase(state[1]!, context))) {
    const done = /^(?:complete|completed|done|finished|checked|ticked)$/i.test(state[3]!) === (state[2] === undefined);
    const reading = itemSteps(state[1]!, context, (target, text) => ({
      action: 'expectState',
      description: `Expect ${text} to be ${done ? 'completed (its checkbox checked)' : 'not completed (its checkbox unchecked)'}`,
      target,
      state: done ? 'checked' : 'unchecked',
    }));
    return reading === undefined ? undefined : withCriterion(reading, body);
  }
  const said = matchOutsideQuotes(
    body,
    new RegExp(`^(?:it|(?:the\\s+)?(?:(?:to-?do\\s+)?list|(?:${ITEM_NOUNS}))(?:\\s+list)?)\\s+(?:now\\s+|still\\s+|then\\s+)?(?:shows?|contains?|has|have|lists?|displays?|reads?|is|are|consists? of|includes?)\\s+(?:only\\s+|just\\s+|exactly\\s+)?(?:(?:${NUMBER})\\s+(?:${ITEM_NOUNS})\\s*[,:]?\\s*)?(.+?)(,?\\s+only|,?\\s+and nothing else|,?\\s+in (?:that|this|the same|the) order(?:\\s+(?:i|we|they)\\s+(?:added|created|entered) them)?)?$`, 'i'),
  );
  const shown = matchOutsideQuotes(body, /^(only\s+|just\s+)?(.+?)\s+(?:is|are)\s+(?:all\s+)?(?:still\s+|now\s+)?(?:shown|listed|displayed|visible|left|there|present|in the list|on the list)(?:\s+again)?(\s+in (?:that|this|the same) order)?$/i);
  // "it shows 'X'" is about whatever "it" is ("it shows two todos, 'a' and 'b'" is about the list); without "check
  // that", a list said to show quoted items is still a statement to check ("the list should show 'a'").
  const shows =
    said !== undefined &&
    !(/^it\b/i.test(body) && splitList(said[1]!).length < 2 && (itemRefs(said[1]!, context)?.length ?? 0) < 2) &&
    (lead !== undefined || /^that\s/i.test(clause.trim()) || splitList(said[1]!).every((part) => unquote(part) !== undefined) || /^(?:all|both|each|every)\b/i.test(said[1]!.trim()))
      ? said
      : undefined;
  const listed = shows?.[1] ?? shown?.[2];
  if (listed === undefined) return undefined;
  // Without "check that", only a subject that refers back to the task's items ("all three todos are listed").
  if (shows === undefined && lead === undefined && !/^(?:all|both|each|every|none|neither|them|they|it)\b/i.test(listed.trim())) return undefined;
  // Quoted items, items named earlier, or references to them ("it", "the second todo"); a lone quoted text among
  // others is the assertion reader's ("'Saved' is shown").
  const refs = itemRefs(listed, context);
  if (refs === undefined || refs.some((ref) => !('text' in ref))) return undefined;
  if (shows === undefined && refs.length < 2 && unquote(trimPunctuation(listed)) !== undefined) return undefined;
  if (refs.length === 0) return undefined;
  const items = refs.map((ref) => (ref as { text: string }).text);
  // "The list shows a and b" says what the list holds; "a and b are shown" only that they are among it.
  const only = shows !== undefined || shown?.[1] !== undefined;
  const ordered = /\border\b/i.test(shows?.[2] ?? shown?.[3] ?? '') || (shows !== undefined && items.length > 1);
  const step: PlanStep = {
    action: 'expectItems',
    description: `Expect the list to show ${items.map((item) => JSON.stringify(item)).join(', ')}${only ? ' and nothing else' : ''}${ordered ? ', in that order' : ''}`,
    target: listShowing(items[0]!),
    itemRole: 'listitem',
    texts: items,
    only,
    ordered,
  };
  return withCriterion(steps([step]), body);
}

/** One step per item a phrase names ("'a' and 'b'", "both", "each of them", "the second todo", "it"), on its checkbox. */
function itemSteps(phrase: string, context: ReadingContext, make: (target: Target, text: string) => PlanStep): Reading | undefined {
  const refs = itemRefs(phrase, context);
  if (refs === undefined || refs.length === 0) return undefined;
  const made = refs.map((ref) => {
    const checkbox: Target = { by: 'role', role: 'checkbox', name: '', exact: false, ...('text' in ref ? { within: { text: ref.text } } : { nth: ref.nth }) };
    return make(checkbox, 'text' in ref ? JSON.stringify(ref.text) : ordinalName(ref.nth));
  });
  return steps(made);
}

/** What a phrase names: the items it lists, or refers back to, or undefined when it names none. */
export function itemRefs(phrase: string, context: ReadingContext): ItemRef[] | undefined {
  // "that todo", "this item": the one the task spoke of last.
  if (new RegExp(`^(?:that|this|the same)\\s+(?:${ITEM_NOUNS})$`, 'i').test(trimPunctuation(phrase))) return context.lastItem === undefined ? undefined : [{ text: context.lastItem }];
  const text = stripDeterminers(trimPunctuation(phrase));
  if (new RegExp(`^(?:(?:all|both|each|every)(?:\\s+of)?(?:\\s+(?:them|the|these|those|my))?(?:\\s+${NUMBER})?(?:\\s+(?:${ITEM_NOUNS}))?|them all|them|they|these|those)$`, 'i').test(text)) {
    return context.items.length > 0 ? context.items.map((item) => ({ text: item })) : undefined;
  }
  // "the three todos": all of them, when the task added that many.
  const counted = new RegExp(`^(${NUMBER})\\s+(?:${ITEM_NOUNS})$`, 'i').exec(text);
  if (counted !== null && numberOf(counted[1]!) === context.items.length && context.items.length > 0) return context.items.map((item) => ({ text: item }));
  const parts = splitList(text);
  const refs: ItemRef[] = [];
  for (const part of parts) {
    const ref = itemRef(part, context);
    if (ref === undefined) return undefined;
    refs.push(ref);
  }
  return refs;
}

function itemRef(phrase: string, context: ReadingContext): ItemRef | undefined {
  const text = stripDeterminers(trimPunctuation(phrase));
  const quoted = unquote(text);
  if (quoted !== undefined) return { text: quoted };
  const named = new RegExp(`^(?:(?:${ITEM_NOUNS})\\s+)?(["'][^"']+["'])(?:\\s+(?:${ITEM_NOUNS}))?$`, 'i').exec(text);
  if (named !== null) return { text: unquote(named[1]!)! };
  const ordinal = new RegExp(`^(${ORDINAL})(?:\\s+(?:one|${ITEM_NOUNS}))?(?:\\s+(?:in|on|of)\\s+the\\s+list)?$`, 'i').exec(text);
  if (ordinal !== null) {
    const nth = ORDINALS[ordinal[1]!.toLowerCase()]!;
    const known = nth === -1 ? context.items.at(-1) : context.items[nth - 1];
    return known !== undefined ? { text: known } : { nth };
  }
  if (/^(?:it|that|this|that one|this one|the same one)$/i.test(text)) return context.lastItem === undefined ? undefined : { text: context.lastItem };
  const known = context.items.find((item) => item.toLowerCase() === text.toLowerCase());
  return known === undefined ? undefined : { text: known };
}

/** Every item the phrase names is one the task added, or is named by position or pronoun. */
function refersBack(phrase: string, context: ReadingContext): boolean {
  const quoted = splitList(stripDeterminers(trimPunctuation(phrase))).map((part) => unquote(part));
  const refs = itemRefs(phrase, context) ?? [];
  return refs.every((ref, index) => !('text' in ref) || quoted[index] === undefined || context.items.includes(ref.text));
}

function isItemPhrase(phrase: string, context: ReadingContext): boolean {
  const refs = itemRefs(phrase, context);
  return refs !== undefined && refs.length > 0;
}

/** "'a', 'b' and 'c'" → its parts (commas and "and" outside quotes). */
export function splitList(text: string): string[] {
  const masked = maskQuotes(text);
  const parts: string[] = [];
  let start = 0;
  for (const match of masked.matchAll(/\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+/gi)) {
    parts.push(text.slice(start, match.index).trim());
    start = match.index + match[0].length;
  }
  parts.push(text.slice(start).trim());
  return parts.filter((part) => part !== '');
}

function singular(noun: string): string {
  const lower = noun.toLowerCase().replace(/^to-do/, 'todo');
  if (lower === 'entries') return 'entry';
  return lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

function ordinalName(nth: number): string {
  if (nth === -1) return 'the last item';
  const names = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
  return `the ${names[nth - 1] ?? `${nth}th`} item`;
}

/** The list that shows `text`: where a list's items are counted, not every list item on the page (menus, filters). */
function listShowing(text: string): Target {
  return { by: 'role', role: 'list', name: '', exact: false, within: { text } };
}

function withCriterion(reading: Reading, body: string): Reading {
  if (reading.kind !== 'steps') return reading;
  const key = slugKey(body);
  return { ...reading, steps: reading.steps.map((step) => ({ ...step, criterion: key }) as PlanStep), criteria: [{ key, description: body.length > 200 ? `${body.slice(0, 197)}…` : body }] };
}

