/**
 * What an element placed against another says: "the message above the heading should say either 'Saved' or 'Try
 * again'", "check that the text below the Email field reads 'Required'". The subject is kept as the person's words
 * (a `description` target), found on the page by its place (src/core/positions.ts), never the whole page: the same
 * words may be elsewhere on it (a page that explains its own messages).
 */
import type { PlanStep } from '../core/plan.js';
import { positionOf } from '../core/positions.js';
import { steps, type Reading } from './reading.js';
import { slugKey, unquote } from './words.js';

const QUOTED = String.raw`(?:"[^"]+"|'[^']+')`;
const SAYS = new RegExp(
  String.raw`^(?:(?:check|verify|confirm|make\s+sure|ensure|expect)(?:\s+that)?\s+)?(.+?)\s+(?:should\s+|must\s+|will\s+)?(?:(?:now|then|still)\s+)?(?:say|says|read|reads|show|shows|display|displays|contain|contains|be|is)\s+(?:one\s+of\s+|either\s+)?(${QUOTED}(?:\s*,\s*${QUOTED})*(?:\s*,?\s+or\s+${QUOTED})?)$`,
  'i',
);

export function readPositionedText(clause: string): Reading | undefined {
  const match = SAYS.exec(clause.trim().replace(/[.!;]+$/, ''));
  if (match === null || positionOf(match[1]!) === undefined) return undefined;
  const texts = [...match[2]!.matchAll(/"[^"]+"|'[^']+'/g)].map((found) => unquote(found[0])!.trim()).filter((text) => text !== '');
  if (texts.length === 0) return undefined;
  const subject = match[1]!.trim().slice(0, 300);
  const key = slugKey(clause.replace(/^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+/i, ''));
  const [first, ...others] = texts as [string, ...string[]];
  const step: PlanStep = {
    action: 'expectText',
    description: `Expect ${subject} to show ${texts.map((text) => JSON.stringify(text)).join(' or ')}`,
    text: first,
    ...(others.length === 0 ? {} : { orText: others }),
    target: { by: 'description', name: subject, exact: false },
    criterion: key,
  };
  return steps([step], [], [{ key, description: clause.trim() }]);
}
