/**
 * "No items are left in the cart", "there are no more products in the basket", "nothing is left in the list", "the
 * cart is empty now": none of what the task put there is still shown. Read as each item the task named (added,
 * opened, removed) being gone, each its own "hidden" expectation of the item's exact text, which the run judges only
 * for a text it saw before (src/browser/gone-anchors.ts). A page's "empty" has no one shape (a message, no rows, no
 * list at all), so its emptiness is checked through what the task knows was there; with no item named, the clause is
 * left to the other readers.
 */
import type { PlanStep, SuccessCriterion } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { excerpt, slugKey, trimPunctuation } from './words.js';

const LEAD = /^(?:(?:and\s+)?(?:check|verify|make sure|ensure|confirm|expect|see)\s+)?(?:that\s+)?/i;
const THINGS = String.raw`(?:items?|products?|things?|articles?|entries|entry|rows?|todos?|tasks?|notes?|books?)`;
const PLACE = String.raw`(?:the\s+|my\s+|your\s+|our\s+)?(?:shopping\s+)?(cart|basket|bag|trolley|list|table|wish ?list)`;
const NONE_LEFT = new RegExp(
  String.raw`^(?:there\s+(?:are|is)\s+)?(?:no\s+(?:more\s+)?${THINGS}|nothing)\s+(?:(?:are|is)\s+)?(?:(?:still\s+)?(?:left|remaining|remain|there|shown|listed)\s+)?(?:in|on)\s+${PLACE}(?:\s+any\s+more|\s+anymore)?$`,
  'i',
);
const EMPTY = new RegExp(String.raw`^${PLACE}\s+(?:is|should\s+be|must\s+be|becomes|is\s+now|is\s+left)\s+(?:now\s+)?empty(?:\s+(?:now|again|afterwards))?$`, 'i');

export function readNothingLeft(clause: string, context: Pick<ReadingContext, 'items' | 'lastItem'>): Reading | undefined {
  const body = trimPunctuation(clause.replace(LEAD, ''));
  const said = NONE_LEFT.exec(body) ?? EMPTY.exec(body);
  if (said === null) return undefined;
  const named = [...new Set([...context.items, ...(context.lastItem === undefined ? [] : [context.lastItem])])];
  if (named.length === 0) return undefined;
  const key = slugKey(body);
  const criteria: SuccessCriterion[] = [{ key, description: excerpt(body) }];
  const checks: PlanStep[] = named.map((item) => ({
    action: 'expectState',
    description: `Expect ${JSON.stringify(item)} to be gone from the ${said[1]!.toLowerCase()}`,
    target: { by: 'text', name: item, exact: true },
    state: 'hidden',
    criterion: key,
  }));
  return steps(checks, [`Reads "${excerpt(clause)}" as: ${named.map((item) => JSON.stringify(item)).join(', ')}, which the task named, ${named.length === 1 ? 'is' : 'are'} no longer shown.`], criteria);
}
