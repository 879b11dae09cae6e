/**
 * An expectation with alternatives: "the message should say either 'Saved' or 'Try again'", "the result should be
 * 'Heads' or 'Tails'". Any one of the texts will do (`orText`): an app that answers one of several ways (a
 * random outcome, a message that depends on the data) is checked for all of them, and a page that shows none fails.
 */
import type { PlanStep } from '../core/plan.js';
import type { Reading } from './reading.js';
import { matchOutsideQuotes, slugKey, trimPunctuation, unquote } from './words.js';

const QUOTED = String.raw`(?:"[^"]+"|'[^']+')`;
const EITHER = new RegExp(
  String.raw`^(?:(?:check|verify|confirm|make\s+sure|ensure|expect)(?:\s+that)?\s+)?(.+?)\s+(?:should\s+|must\s+|will\s+)?(?:(?:now|then|still)\s+)?(?:say|says|read|reads|show|shows|display|displays|contain|contains|be|is)\s+(?:one\s+of\s+|either\s+)?(${QUOTED}(?:\s*,\s*${QUOTED})*\s*,?\s+or\s+${QUOTED})$`,
  'i',
);

export function readEitherText(clause: string): Reading | undefined {
  const text = trimPunctuation(clause);
  const match = matchOutsideQuotes(text, EITHER);
  // "the message above the heading": where it is matters, and a check of the whole page would not say it (the same
  // words may be elsewhere on the page); left to the readers of targets.
  if (match === undefined || /\b(?:above|below|under|beneath|next to|beside|left of|right of|at the (?:top|bottom))\b/i.test(match[1]!)) return undefined;
  const texts = [...match[2]!.matchAll(/"([^"]+)"|'([^']+)'/g)].map((found) => unquote(found[0])!.trim()).filter((found) => found !== '');
  if (texts.length < 2) return undefined;
  const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+/i, ''));
  const [first, ...others] = texts as [string, ...string[]];
  const step: PlanStep = {
    action: 'expectText',
    description: `Expect the page to show ${texts.map((found) => JSON.stringify(found)).join(' or ')}`,
    text: first,
    orText: others,
    criterion: key,
  };
  return { kind: 'steps', steps: [step], criteria: [{ key, description: text }], assumptions: [`Reads "${clause}" as: the page shows any one of ${texts.length} texts.`] };
}
