/**
 * The parts of one list item, as people name them: "its checkbox", "its 'feed the cat' label", "the Delete button of
 * 'Pay rent'", "'Pay rent''s edit field"; and what they say of them: "its checkbox and its label must not be visible",
 * "the checkbox of 'a' is checked". Each part is an element inside the item's row (`within`), or the item's own text.
 */
import type { PlanStep, Target } from '../core/plan.js';
import { normalise } from './assertions.js';
import { itemRefs } from './item-steps.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { describeTarget } from './targets.js';
import { matchOutsideQuotes, slugKey, trimPunctuation, unquote } from './words.js';

type State = Extract<PlanStep, { action: 'expectState' }>['state'];

const LEAD = /^(?:(?:check|verify|ensure|make sure|confirm|expect|assert)(?:\s+that)?\s+)/i;
const STATES: ReadonlyArray<[RegExp, State, State]> = [
  [/^(?:visible|shown|displayed|present|there)$/i, 'visible', 'hidden'],
  [/^(?:hidden|invisible|gone)$/i, 'hidden', 'visible'],
  [/^(?:checked|ticked)$/i, 'checked', 'unchecked'],
  [/^(?:unchecked|unticked)$/i, 'unchecked', 'checked'],
  [/^(?:enabled)$/i, 'enabled', 'disabled'],
  [/^(?:disabled)$/i, 'disabled', 'enabled'],
  [/^(?:focused)$/i, 'focused', 'focused'],
];
const STATE_WORDS = 'visible|shown|displayed|present|there|hidden|invisible|gone|checked|ticked|unchecked|unticked|enabled|disabled|focused';

/** "its checkbox is hidden", "the Delete button of 'a' should not be visible": a state of one part of an item. */
export function readItemPart(clause: string, context: ReadingContext): Reading | undefined {
  const body = normalise(trimPunctuation(clause).replace(LEAD, ''));
  const stated = matchOutsideQuotes(body, new RegExp(`^(.+?)\\s+(?:is|are)\\s+(?:now\\s+|still\\s+|also\\s+)?(not\\s+)?(${STATE_WORDS})$`, 'i'));
  if (stated === undefined) return undefined;
  const target = itemPart(stated[1]!, context);
  if (target === undefined) return undefined;
  const entry = STATES.find(([pattern]) => pattern.test(stated[3]!))!;
  const state = stated[2] === undefined ? entry[1] : entry[2];
  const key = slugKey(body);
  const step: PlanStep = { action: 'expectState', description: `Expect ${describeTarget(target)} to be ${state}`, target, state, criterion: key };
  return steps([step], [], [{ key, description: body.length > 200 ? `${body.slice(0, 197)}…` : body }]);
}

/** The element a phrase names inside an item: "its checkbox", "its 'x' label", "the Delete button of 'x'". */
export function itemPart(phrase: string, context: ReadingContext): Target | undefined {
  const text = trimPunctuation(phrase);
  const its = matchOutsideQuotes(text, /^its\s+(.+)$/i);
  const of = matchOutsideQuotes(text, /^(?:the\s+)?(.+?)\s+(?:of|for|in the row of|next to)\s+(.+)$/i);
  const possessive = matchOutsideQuotes(text, /^(.+?)(?:'s|’s)\s+(.+)$/i);
  let item: string | undefined;
  let part: string | undefined;
  if (its !== undefined) [item, part] = [context.lastItem, its[1]];
  else if (possessive !== undefined) [item, part] = [oneItem(possessive[1]!, context), possessive[2]];
  else if (of !== undefined) [item, part] = [oneItem(of[2]!, context), of[1]];
  if (item === undefined || part === undefined) return undefined;
  return partTarget(part, item);
}

function oneItem(phrase: string, context: ReadingContext): string | undefined {
  const refs = itemRefs(phrase, context);
  return refs?.length === 1 && 'text' in refs[0]! ? refs[0].text : undefined;
}

function partTarget(part: string, item: string): Target | undefined {
  const words = part.trim();
  if (/^(?:check ?box|tick ?box|toggle|checkmark)$/i.test(words)) return { by: 'role', role: 'checkbox', name: '', exact: false, within: { text: item } };
  // Its label is its text: "its label", "its 'feed the cat' label", "its title".
  const label = matchOutsideQuotes(words, /^(?:("[^"]+"|'[^']+')\s+)?(?:label|title|text|name)$/i);
  if (label !== undefined) return { by: 'text', name: label[1] === undefined ? item : unquote(label[1])!, exact: true };
  if (/^(?:edit|editing|text)\s+(?:field|box|input)$/i.test(words)) return { by: 'description', role: 'textbox', name: 'edit', exact: false };
  const button = matchOutsideQuotes(words, /^(.+?)\s+(?:button|icon|link)$/i);
  if (button !== undefined) {
    const name = unquote(button[1]!) ?? button[1]!.replace(/^(?:the|a)\s+/i, '');
    return { by: 'role', role: 'button', name, exact: false, within: { text: item } };
  }
  return undefined;
}
