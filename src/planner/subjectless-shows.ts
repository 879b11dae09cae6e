/**
 * A predicate whose subject is the clause before: "make sure its page opens and shows 'Trail Backpack'", "the
 * receipt appears and says 'Paid' and 'Thank you'". Split off, the second clause is only the verb and what is quoted
 * ("shows 'Trail Backpack'"): the page shows each quoted text, not the words "shows 'Trail Backpack'".
 */
import type { PlanStep } from '../core/plan.js';
import { steps, type Reading } from './reading.js';
import { excerpt, slugKey, trimPunctuation } from './words.js';

const QUOTED = String.raw`(?:"[^"]+"|'[^']+'|“[^”]+”)`;
const SHOWS = new RegExp(
  String.raw`^(?:(?:check|verify|make sure|ensure|confirm|expect)\s+(?:that\s+)?)?(?:it\s+|that\s+|also\s+|then\s+)*(?:shows?|says?|displays?|reads?|contains?|lists?|mentions?)\s+(${QUOTED}(?:\s*(?:,|and|,\s*and)\s*${QUOTED})*)$`,
  'i',
);

export function readSubjectlessShows(clause: string): Reading | undefined {
  const said = SHOWS.exec(trimPunctuation(clause));
  if (said === null) return undefined;
  const texts = [...said[1]!.matchAll(/"([^"]+)"|'([^']+)'|“([^”]+)”/g)].map((match) => (match[1] ?? match[2] ?? match[3])!.trim()).filter((text) => text !== '');
  if (texts.length === 0) return undefined;
  const key = slugKey(clause);
  const checks: PlanStep[] = texts.map((text) => ({ action: 'expectText', description: `Expect the page to show ${JSON.stringify(text)}`, text, criterion: key }));
  return steps(checks, [`Reads "${excerpt(clause)}" as said of the page: it shows ${texts.map((text) => JSON.stringify(text)).join(' and ')}.`], [{ key, description: excerpt(clause) }]);
}
