/**
 * Counting again what the task counted before, said the short way: "click Add twice and check there are two Delete
 * buttons; delete one and make sure only one is left", "… and none remain". The count is of the same elements as the
 * last count (`expectCount` on its target), so "one is left" cannot pass on one of something else. And a click said
 * again with "once more" ("click Delete once more") is a click on that control.
 */
import type { PlanStep } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { NUMBER, numberOf, slugKey } from './words.js';

const LEAD = String.raw`(?:(?:check|verify|confirm|make sure|ensure|expect|see)(?:\s+that)?\s+)?`;
const LEFT = new RegExp(String.raw`^${LEAD}(?:(?:there\s+(?:is|are)\s+)?(?:only|just|exactly)\s+)?(none|no more|no|${NUMBER})(?:\s+(?:of\s+them|more))?\s+(?:(?:is|are)\s+(?:now\s+|still\s+)?(?:left|remaining|there)|remains?|(?:is|are)\s+left\s+(?:now|over))$`, 'i');
const AGAIN = /^(click|tap|press)\s+(?:on\s+)?(.+?)\s+(?:once more|one more time|once again|again)$/i;

export function readRemainingCount(clause: string, context: Pick<ReadingContext, 'lastCounted'>): Reading | undefined {
  const text = clause.trim().replace(/[.,;:!]+$/, '');
  const match = LEFT.exec(text);
  const counted = context.lastCounted;
  if (match === null || counted?.action !== 'expectCount') return undefined;
  const word = match[1]!.toLowerCase();
  const count = word === 'none' || word === 'no more' || word === 'no' ? 0 : numberOf(word);
  if (count === undefined) return undefined;
  const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect|see)(?:\s+that)?\s+/i, ''));
  const step: PlanStep = { ...counted, description: counted.description.replace(/^Expect \d+/, `Expect ${count}`), count, criterion: key };
  return steps([step], [], [{ key, description: text }]);
}

/** "click Delete once more": the words before "once more" are the control ("it again" is the step before's). */
export function withoutAgain(clause: string): string | undefined {
  const match = AGAIN.exec(clause.trim().replace(/[.,;:!]+$/, ''));
  if (match === null || /^(?:it|that|this|them|the same(?:\s+\w+)?)$/i.test(match[2]!)) return undefined;
  return `${match[1]!} ${match[2]!}`;
}
