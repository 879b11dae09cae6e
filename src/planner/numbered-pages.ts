/**
 * Pages a site numbers within a topic, named the way people say them: "Dynamic Loading example 1", "the second
 * Dynamic Loading example", "Forms exercise 3", "the third Drag and Drop demo". The page's name keeps the number
 * ("Dynamic Loading example 2"), so the run can find it: already open when the address says its words and number
 * (src/core/page-address.ts), else a link of that name; the path is only a guess.
 * And the apposition that often follows ("…, the one titled 'Example 2: …'") says what that page shows: its heading.
 */
import type { PlanStep } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { slugKey, unquote } from './words.js';

const ORDINALS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5 };
const NUMBERS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const KIND = 'example|demo|exercise|sample|lesson|tutorial|challenge|scenario|variant';
const TOPIC = String.raw`[A-Z][\w'-]*(?:\s+(?:[A-Z0-9][\w'-]*|of|and|or|the|to|in|on|for|with|&|\/))*`;
const LEAD = /^(?:open|visit|load|view|go\s+to|navigate\s+to|head\s+to|browse\s+to|go\s+back\s+to|return\s+to)\s+(.+)$/i;
const ORDINAL_FIRST = new RegExp(String.raw`^(?:the\s+)?(${Object.keys(ORDINALS).join('|')})\s+(${TOPIC})\s+(${KIND})(?:\s+page)?$`);
const NUMBER_AFTER = new RegExp(String.raw`^(?:the\s+)?(${TOPIC})\s+(${KIND})\s+(?:(?:no\.?|number|#)\s*)?(\d{1,3}|${Object.keys(NUMBERS).join('|')})(?:\s+page)?$`, 'i');

/** "Dynamic Loading example 1", "the second Dynamic Loading example": the page's name with its number, or undefined. */
export function numberedPageName(phrase: string): string | undefined {
  const text = phrase.trim().replace(/[.,;:!?]+$/, '');
  const first = ORDINAL_FIRST.exec(text);
  if (first !== null) return `${first[2]!} ${first[3]!.toLowerCase()} ${ORDINALS[first[1]!.toLowerCase()]!}`;
  const after = NUMBER_AFTER.exec(text);
  if (after !== null && /^[A-Z]/.test(after[1]!)) return `${after[1]!} ${after[2]!.toLowerCase()} ${NUMBERS[after[3]!.toLowerCase()] ?? Number(after[3])}`;
  return undefined;
}

/** "open Dynamic Loading example 1": a navigation to that page by name. */
export function readNumberedPage(clause: string): Reading | undefined {
  const lead = LEAD.exec(clause.trim());
  const name = lead === null ? undefined : numberedPageName(lead[1]!);
  if (name === undefined) return undefined;
  const slug = name.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== '').join('-');
  const step: PlanStep = { action: 'navigate', description: `Go to the ${name} page`, url: `/${slug}`, page: name.slice(0, 200) };
  return steps([step]);
}

const APPOSITION = /^(?:the|that)\s+one\s+(?:titled|called|named|headed|with\s+the\s+(?:heading|title))\s+("[^"]+"|'[^']+')$/i;

/** "…, the one titled 'Example 2: …'" right after going to a page by name: that page's heading says it. */
export function readPageApposition(clause: string, context: Pick<ReadingContext, 'last'>): Reading | undefined {
  const match = APPOSITION.exec(clause.trim().replace(/[.,;:!?]+$/, ''));
  if (match === null || context.last?.action !== 'navigate' || context.last.page === undefined) return undefined;
  const text = unquote(match[1]!)!;
  const key = slugKey(`heading ${text}`);
  return steps([{ action: 'expectText', description: `Expect a heading to show ${JSON.stringify(text)}`, text, role: 'heading', criterion: key }], [], [{ key, description: clause.trim() }]);
}
