/**
 * What a select list shows after a choice, said the way people say it right after choosing: "pick 'Large' from the
 * dropdown and check it's the one selected", "…, then check that Large is now the selected option", "the selected
 * size is Medium". Each is the value of the list just chosen in (an `expectValue` on the same target, which the
 * runner compares with the chosen option's text as well as its value), never a text anywhere on the page.
 */
import type { PlanStep } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { slugKey, unquote } from './words.js';

const LEAD = String.raw`(?:(?:check|verify|confirm|make sure|ensure|expect|see)(?:\s+that)?\s+)?`;
const CHOSEN = String.raw`(?:selected|chosen|picked|current)`;
/** "it's the one selected", "it is now the selected option", "that is selected". */
const IT = new RegExp(String.raw`^${LEAD}(?:it|that|this)(?:'s|\s+is)\s+(?:now\s+|still\s+)?(?:(?:the\s+)?one\s+${CHOSEN}|(?:the\s+)?${CHOSEN}(?:\s+(?:one|option|value|choice|item))?)$`, 'i');
/** "Large is now the selected option", "'Large' is selected". */
const NAMED = new RegExp(String.raw`^${LEAD}(.+?)\s+is\s+(?:now\s+|still\s+)?(?:(?:the\s+)?one\s+${CHOSEN}|(?:the\s+)?${CHOSEN}(?:\s+(?:one|option|value|choice|item))?)$`, 'i');
/** "the selected option is Large", "the chosen value is now 'Large'". */
const SUBJECT_FIRST = new RegExp(String.raw`^${LEAD}the\s+${CHOSEN}\s+(?:option|value|choice|item|one)\s+is\s+(?:now\s+)?(.+)$`, 'i');

export function readSelectionCheck(clause: string, context: Pick<ReadingContext, 'lastActed'>): Reading | undefined {
  const chosen = context.lastActed;
  if (chosen?.action !== 'select' || chosen.value.kind !== 'literal') return undefined;
  const text = clause.trim().replace(/[.,;:!]+$/, '');
  let value: string | undefined;
  if (IT.test(text)) value = chosen.value.text;
  else {
    const named = NAMED.exec(text)?.[1] ?? SUBJECT_FIRST.exec(text)?.[1];
    if (named === undefined) return undefined;
    value = unquote(named.trim()) ?? named.trim();
    // Unquoted, the words must be a choice the task made in that list: "it is the selected one" is no value.
    if (unquote(named.trim()) === undefined && value.toLowerCase() !== chosen.value.text.toLowerCase()) return undefined;
  }
  const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect|see)(?:\s+that)?\s+/i, ''));
  const step: PlanStep = { action: 'expectValue', description: `Expect the list to show ${JSON.stringify(value)} as chosen`, target: chosen.target, text: value, criterion: key };
  return steps([step], [], [{ key, description: text }]);
}

const AGAIN = /^(?:pick|choose|select)\s+("[^"]+"|'[^']+')(?:\s+(?:now|next|instead|this time))?$/i;

/** "…, then pick 'Medium'" right after choosing in a list: the same list, not a box named Medium. */
export function readNextChoice(clause: string, context: Pick<ReadingContext, 'lastActed'>): Reading | undefined {
  const chosen = context.lastActed;
  const match = AGAIN.exec(clause.trim().replace(/[.,;:!]+$/, ''));
  if (match === null || chosen?.action !== 'select') return undefined;
  const value = unquote(match[1]!)!;
  return steps([{ action: 'select', description: `Select ${JSON.stringify(value)} in the same list`, target: chosen.target, value: { kind: 'literal', text: value } }]);
}
