/**
 * What a page keeps in the browser's local storage, as people say it: "both todos should be saved in local storage",
 * "with all 3 saved in local storage", "one completed todo is saved in local storage", "'buy milk' should be in local
 * storage", "saved in local storage as exactly 'x'", "there should be 2 todos stored", "(the app keeps them under
 * 'react-todos')". Counts come from the words ("both", "all three", "one completed todo": entries with `completed`
 * set); texts from quotes or the item the task spoke of last.
 */
import type { PlanStep } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { matchOutsideQuotes, NUMBER, numberOf, slugKey, trimPunctuation, unquote } from './words.js';

const STORAGE = /\blocal\s*-?\s*storage\b/i;
const KEY = /\b(?:under|in|as|at)\s+(?:the\s+)?(?:key\s+)?("[^"]+"|'[^']+')(?:\s+key)?/i;
const STATE_WORDS = /\b(completed|complete|done|finished|checked|active|archived|starred|selected)\b/i;

export function readStorage(clause: string, context: ReadingContext): Reading | undefined {
  const text = trimPunctuation(clause);
  const keyOnly = matchOutsideQuotes(text, /^(?:the\s+app|it|the\s+page|the\s+site)\s+(?:keeps|stores|saves|puts)\s+(?:them|it|the\s+\w+)\s+(?:under|in|as)\s+(?:the\s+)?(?:key\s+)?("[^"]+"|'[^']+')(?:\s+key)?$/i);
  if (keyOnly !== undefined) return steps([], [`Local storage key ${keyOnly[1]}: the checks of what is stored look at every key.`]);

  const there = matchOutsideQuotes(text, new RegExp(`^(?:so\\s+)?there\\s+(?:should|must|will)\\s+(?:still\\s+)?be\\s+(${NUMBER}|no)\\s+(?:(\\w+)\\s+)?(?:to-?dos?|items?|entries|notes?|tasks?|records?)\\s+(?:stored|saved|persisted|kept)(?:\\s+.*)?$`, 'i'));
  // "all three are saved as completed": stored that way, whatever the page shows.
  const savedAs = /\b(?:saved|stored|persisted)\s+as\s+(?:completed|complete|done|finished)\b/i.test(text);
  if (!STORAGE.test(text) && there === undefined && !savedAs) return undefined;

  const body = text.replace(/^(?:(?:and|so|with|then)\s+)*(?:(?:check|verify|make sure|ensure|confirm|expect)(?:\s+that)?\s+)?(?:that\s+)?/i, '');
  const key = KEY.exec(body.replace(/^.*?local\s*-?\s*storage/i, ''))?.[1];
  const exactly = matchOutsideQuotes(body, /\blocal\s*-?\s*storage\s+as\s+(?:exactly\s+)?("[^"]+"|'[^']+')/i);
  const subject = (there === undefined ? body.split(/\b(?:should|must|is|are|was|were|has|have|gets?|got|saved|stored|persisted|kept|in)\b/i)[0] ?? '' : `${there[1]} ${there[2] ?? ''} todos`).trim();

  const texts = [...subject.matchAll(/"([^"]+)"|(?<![\w])'([^']+)'(?![\w])/g)].map((match) => (match[1] ?? match[2])!);
  if (exactly !== undefined) texts.push(unquote(exactly[1]!)!);
  let count: number | undefined;
  let where: string | undefined;
  const counted = new RegExp(`^(?:with\\s+)?(?:all\\s+)?(${NUMBER}|both|no|neither|none)\\b`, 'i').exec(subject);
  if (counted !== null) count = /^both$/i.test(counted[1]!) ? 2 : /^(?:no|neither|none)$/i.test(counted[1]!) ? 0 : numberOf(counted[1]!);
  else if (/^(?:with\s+)?all\b/i.test(subject) && context.items.length > 0) count = context.items.length;
  const state = STATE_WORDS.exec(body.replace(/\blocal\s*-?\s*storage\b.*$/i, ''));
  if (count !== undefined && state !== null) where = state[1]!.toLowerCase() === 'complete' ? 'completed' : state[1]!.toLowerCase();
  // "the todo should be saved", "the new title should be saved": the item the task spoke of last.
  if (texts.length === 0 && count === undefined && /^(?:the|its|it|that|this)\b/i.test(subject) && context.lastItem !== undefined) texts.push(context.lastItem);
  if (texts.length === 0 && count === undefined) return undefined;

  const what = [
    ...texts.map((value) => JSON.stringify(value)),
    ...(count === undefined ? [] : [`${count} ${where === undefined ? 'entries' : `${where} entries`}`]),
  ].join(' and ');
  const keyText = key === undefined ? undefined : unquote(key);
  const criterion = slugKey(body);
  const step: PlanStep = {
    action: 'expectStorage',
    description: `Expect local storage to hold ${what}`,
    ...(keyText === undefined ? {} : { key: keyText }),
    texts,
    ...(count === undefined ? {} : { count }),
    ...(where === undefined ? {} : { where }),
    criterion,
  };
  return steps([step], [], [{ key: criterion, description: body.length > 200 ? `${body.slice(0, 197)}…` : body }]);
}
