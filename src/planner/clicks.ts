/**
 * Clauses that press something: "click Apply", "click the 'Sign in' button", "press the Checkout button", "follow
 * the Pricing link", "press Enter", "remove the Desk Lamp from the cart", and the verbs a page offers as buttons
 * ("place the order" → "Place order").
 */
import type { PlanStep, Target } from '../core/plan.js';
import { steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { describeTarget, readTarget } from './targets.js';
import { capitalise, matchOutsideQuotes, NUMBER, numberOf, stripDeterminers, trimPunctuation, unquote } from './words.js';

const KEYS: ReadonlyArray<[RegExp, string]> = [
  [/^(?:enter|return)$/i, 'Enter'],
  [/^tab$/i, 'Tab'],
  [/^(?:escape|esc)$/i, 'Escape'],
  [/^(?:space|space ?bar)$/i, 'Space'],
  [/^backspace$/i, 'Backspace'],
  [/^(?:delete|del)$/i, 'Delete'],
  [/^(?:arrow ?up|up arrow|up)$/i, 'ArrowUp'],
  [/^(?:arrow ?down|down arrow|down)$/i, 'ArrowDown'],
  [/^(?:arrow ?left|left arrow|left)$/i, 'ArrowLeft'],
  [/^(?:arrow ?right|right arrow|right)$/i, 'ArrowRight'],
  [/^home$/i, 'Home'],
  [/^end$/i, 'End'],
  [/^page ?up$/i, 'PageUp'],
  [/^page ?down$/i, 'PageDown'],
  [/^f(?:[1-9]|1[0-2])$/i, ''],
];
export const KEY_WORDS = 'enter|return|tab|escape|esc|space ?bar|space|backspace|delete|del|arrow ?(?:up|down|left|right)|(?:up|down|left|right) arrow|page ?up|page ?down|home|end|f(?:1[0-2]|[1-9])';
const MODIFIER = /^(ctrl|control|cmd|command|meta|alt|option|shift)\s*\+\s*(\w+)$/i;
/** "once", "twice", "three times": how many times a key is pressed. */
const TIMES = `(?:\\s+(once|twice|thrice|${NUMBER}\\s+times))?`;
const PRESS_KEY = new RegExp(
  `^(?:press|hit|tap|push|strike|type)\\s+(?:the\\s+)?((?:${KEY_WORDS})|[A-Za-z0-9](?=\\s+key\\b)|(?:ctrl|control|cmd|command|meta|alt|option|shift)\\s*\\+\\s*\\w+)(?:\\s+key)?${TIMES}(?:\\s+(?:in|on|inside)\\s+(.+?))?${TIMES}$`,
  'i',
);
/** A key is pressed at most this many times by one clause. */
const MAX_PRESSES = 20;
const REMOVE_FROM = /^(?:remove|delete|take)\s+(.+?)\s+(?:from|out of)\s+(?:the\s+|my\s+|your\s+)?(?:shopping\s+)?(?:cart|basket|bag|trolley|wish ?list)$/i;
const CLICK = /^(?:click|tap|press|hit|push|activate|trigger)\s+(?:on\s+)?(.+)$/i;
const FOLLOW = /^follow\s+(.+)$/i;
/** Where the control is ("in the header", "under Remove/add"): its name alone finds it, or the run says it is ambiguous. */
const WHERE = /\s+(?:in|on|at|inside|within|under|below|above|next to)\s+(?:(?:the|this|that)\s+.+|[A-Z"'][^\s]*(?:\s+(?:section|part|area|panel|box|card|form))?)$/;

/**
 * Verbs that a page offers as a button of the same name. "place the order" → "Place order"; the object is kept
 * when it names a thing ("Remove filter") and left out when it only describes one ("the cheapest item", "the old
 * invoice", "it"), so the target is the button a person would look for.
 */
const BUTTON_VERBS =
  'place|buy|purchase|pay|order|submit|save|send|email|e-mail|message|post|publish|delete|remove|clear|reset|cancel|confirm|continue|proceed|invite|share|transfer|refund|subscribe|unsubscribe|upgrade|downgrade|register|sign up|sign out|log out|log off|approve|reject|accept|decline|archive|restore|download|print|close|dismiss|expand|collapse|book|reserve|donate|like|vote|start|finish|complete|next|retry|undo|edit|update|upload|connect|disconnect|enable|disable|install|uninstall|join|leave';
const VERB_BUTTON = new RegExp(`^(${BUTTON_VERBS})\\b\\s*(.*)$`, 'i');
const DESCRIPTIVE =
  /\b(?:first|last|second|third|cheapest|dearest|most|least|latest|newest|oldest|old|new|top|bottom|selected|current|existing|other|next|previous|it|them|one|ones|this|that|these|those|all|every|each|any|some|everything|item|items|thing|things|form|request|changes|data|details|page|entry|row|record)\b/i;
const OBJECT_TAIL = /\s+(?:with|using|via|for|to|from|as|on|in|at|by|through|into)\s+.*$/i;

export function readClick(clause: string, context?: Pick<ReadingContext, 'lastItem'>): Reading {
  const key = matchOutsideQuotes(clause, PRESS_KEY);
  if (key !== undefined) return pressKey(key[1]!, key[3], timesOf(key[2] ?? key[4]));

  const removed = matchOutsideQuotes(clause, REMOVE_FROM);
  if (removed !== undefined) {
    const item = stripDeterminers(trimPunctuation(removed[1]!));
    const quoted = unquote(item);
    const name = quoted ?? (DESCRIPTIVE.test(item) ? 'Remove' : `Remove ${item}`);
    return click({ by: 'role', role: 'button', name, exact: false }, name === 'Remove' ? [`Reads "${clause}" as a click on a "Remove" button.`] : []);
  }

  const clicked = matchOutsideQuotes(clause, CLICK);
  if (clicked !== undefined) return clickTarget(clicked[1]!, 'button', context?.lastItem);
  const followed = matchOutsideQuotes(clause, FOLLOW);
  if (followed !== undefined) return clickTarget(followed[1]!, 'link', context?.lastItem);
  return UNKNOWN;
}

/** "Post a comment that says hi" is an action even though it "says" something; "Order history shows …" is not. */
export function startsWithButtonVerb(clause: string): boolean {
  return new RegExp(`^(?:${BUTTON_VERBS})\\s+(?:the|a|an|my|your|our|this|that|it|them|some|all)\\b`, 'i').test(clause);
}

/** A clause that starts with a verb a page offers as a button ("place the order", "submit it", "sign out"). */
export function readVerbButton(clause: string): Reading {
  const verb = matchOutsideQuotes(clause, VERB_BUTTON);
  return verb === undefined ? UNKNOWN : verbButton(clause, verb[1]!, verb[2] ?? '');
}

function clickTarget(phrase: string, kind: 'button' | 'link', lastItem: string | undefined): Reading {
  // "'Mark all as complete' to complete them all", "'Start' straight away": a quoted name, then why or how.
  const named = /^(["'][^"']+["'](?:\s+(?:button|link|tab|filter|checkbox|menu item|icon))?)\s+(?:to|so|in order to|straight away|right away|again|once more|now|first|and|which|that|there|here)\b.*$/i.exec(trimPunctuation(phrase));
  // "click Remove there": where the person is, not part of the name.
  const text = (named?.[1] ?? trimPunctuation(phrase)).replace(/\s+(?:there|here)$/i, '');
  const bare = unquote(text) === undefined ? text.replace(WHERE, '') : text;
  // "press Remove on it": the control in the row of the item spoken of last.
  const onIt = /^(.+?)\s+(?:on|of|for|in|next to|beside)\s+(?:it|that one|this one|that item|this item)$/i.exec(bare);
  if (onIt !== null) {
    const control = readTarget(onIt[1]!, kind);
    return control === undefined || lastItem === undefined ? UNKNOWN : click({ ...control, within: { text: lastItem } });
  }
  const target = readTarget(bare, kind);
  return target === undefined ? UNKNOWN : click(target);
}

function click(target: Target, assumptions: string[] = []): Reading {
  return steps([{ action: 'click', description: `Click ${describeTarget(target)}`, target }], assumptions);
}

function timesOf(spoken: string | undefined): number {
  if (spoken === undefined) return 1;
  const word = spoken.toLowerCase().replace(/\s+times$/, '');
  const times = word === 'once' ? 1 : word === 'twice' ? 2 : word === 'thrice' ? 3 : numberOf(word) ?? 1;
  return Math.min(Math.max(times, 1), MAX_PRESSES);
}

function pressKey(spoken: string, on: string | undefined, times = 1): Reading {
  const modified = MODIFIER.exec(spoken.trim());
  const key = modified !== null ? `${modifierName(modified[1]!)}+${keyName(modified[2]!)}` : keyName(spoken);
  const target = on === undefined ? undefined : readTarget(on, 'field');
  if (on !== undefined && target === undefined) return UNKNOWN;
  const step: PlanStep =
    target === undefined
      ? { action: 'press', description: `Press ${key}`, key }
      : { action: 'press', description: `Press ${key} in ${describeTarget(target)}`, key, target };
  return steps(Array.from({ length: times }, () => step));
}

function keyName(spoken: string): string {
  const text = spoken.trim();
  const known = KEYS.find(([pattern]) => pattern.test(text));
  if (known !== undefined) return known[1] === '' ? text.toUpperCase() : known[1];
  return text.length === 1 ? text.toUpperCase() : capitalise(text.toLowerCase());
}

function modifierName(spoken: string): string {
  const lower = spoken.toLowerCase();
  if (lower === 'ctrl' || lower === 'control') return 'Control';
  if (lower === 'cmd' || lower === 'command' || lower === 'meta') return 'Meta';
  if (lower === 'option') return 'Alt';
  return capitalise(lower);
}

function verbButton(clause: string, verb: string, rest: string): Reading {
  const object = stripDeterminers(trimPunctuation(rest).replace(OBJECT_TAIL, '').replace(/\s+(?:there|here)$/i, ''));
  // "start the checkout", "begin the survey": the control that starts it, "Checkout" or "Start checkout" alike.
  if (/^(?:start|begin)$/i.test(verb) && object !== '' && unquote(object) === undefined && !DESCRIPTIVE.test(object)) {
    const name = `${capitalise(verb.toLowerCase())} ${object}`;
    return click({ by: 'description', role: 'button', name, exact: false }, [`Reads "${clause}" as a click on the control that starts ${object}.`]);
  }
  const quoted = unquote(object);
  const spokenVerb = capitalise(verb.toLowerCase().replace(/^e-mail$/, 'email'));
  const name = quoted ?? (object === '' || DESCRIPTIVE.test(object) ? spokenVerb : `${spokenVerb} ${object}`);
  return click({ by: 'role', role: 'button', name, exact: quoted !== undefined }, [`Reads "${clause}" as a click on the ${JSON.stringify(name)} button.`]);
}
