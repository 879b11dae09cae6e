/**
 * A verb said of an item the task already spoke of, by a shorter name: "remove the backpack there" after adding the
 * Trail Backpack, "delete the invoice" after opening Invoice 2024-07, "archive the note from the list". The page's
 * control is named like the verb and sits in the item's row or card ("Remove" beside "Trail Backpack"), not a
 * button called "Remove backpack". The item must be one the task named, and the words said of it all among its
 * words, so a shorter name that fits two items, or none, is left to the other readers.
 */
import type { Target } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { capitalise, stripDeterminers, trimPunctuation, unquote } from './words.js';

const ITEM_VERB =
  /^(remove|delete|edit|archive|duplicate|restore)\s+(.+?)(?:\s+(?:there|here|again|too|as well|from\s+(?:the\s+|my\s+|your\s+)?(?:shopping\s+)?(?:cart|basket|bag|trolley|wish ?list|list|page)))?$/i;

export function readItemControl(clause: string, context: Pick<ReadingContext, 'items' | 'lastItem'>): Reading | undefined {
  const said = ITEM_VERB.exec(trimPunctuation(clause));
  if (said === null) return undefined;
  const object = stripDeterminers(said[2]!.trim());
  if (object === '' || unquote(object) !== undefined || /^(?:it|them|this|that|one|all|everything)$/i.test(object)) return undefined;
  const item = itemCalled(object, context);
  if (item === undefined) return undefined;
  const verb = capitalise(said[1]!.toLowerCase());
  const target: Target = { by: 'role', role: 'button', name: verb, exact: false, within: { text: item } };
  return steps(
    [{ action: 'click', description: `Click the "${verb}" button in the row "${item}"`, target }],
    [`Reads "${object}" in "${clause}" as ${JSON.stringify(item)}, named earlier in the task: the "${verb}" control in its row.`],
  );
}

/** The one item of the task whose words hold every word of `object` ("backpack" → "Trail Backpack"). */
function itemCalled(object: string, context: Pick<ReadingContext, 'items' | 'lastItem'>): string | undefined {
  const wanted = wordsIn(object);
  if (wanted.length === 0) return undefined;
  const known = [...new Set([...context.items, ...(context.lastItem === undefined ? [] : [context.lastItem])])];
  const fits = known.filter((item) => {
    const have = new Set(wordsIn(item));
    return wanted.every((word) => have.has(word));
  });
  return fits.length === 1 ? fits[0] : undefined;
}

function wordsIn(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}
