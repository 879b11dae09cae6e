/**
 * Putting a product in a cart, basket, bag or wish list, as shoppers say it: "add the Desk Lamp to the cart", "put
 * two Notebooks in the basket", "add the first product to the wish list", "add it to the cart". A shop gives each
 * product a control named after the action ("Add to cart", "Add to basket", "Add Desk Lamp to cart"), and the
 * product's name is a link or a heading beside it: the target is the control that says the action, inside the card,
 * row or section that shows the product's name (`within`), grounded on the live page (src/core/grounding.ts). A
 * product named by its place ("the first product") is the control at that place among the page's controls alike (the
 * product's own place when every product offers it).
 */
import type { PlanStep, Target } from '../core/plan.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { matchOutsideQuotes, NUMBER, numberOf, stripDeterminers, trimPunctuation, unquote } from './words.js';

const PLACES = '(?:shopping\\s+)?(cart|basket|bag|trolley|wish ?list|favou?rites)';
const ADD_TO = new RegExp(`^(?:add|put|place|drop|move|save)\\s+(.+?)\\s+(?:to|in|into|onto|on)\\s+(?:the\\s+|my\\s+|your\\s+|our\\s+)?${PLACES}$`, 'i');
/** "add the Desk Lamp" with no cart named: only a quoted or capitalised product name, so "add a note" is not one. */
const ADD_PRODUCT = /^[Aa]dd\s+(?:[Tt]he\s+|an?\s+|one\s+)?((?:["'][^"']+["'])|(?:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*))$/;
const POSITIONS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, last: -1 };
/** "the first product (on the list)", "the 2nd item", "the last one on the page". */
const POSITION = new RegExp(
  `^(${Object.keys(POSITIONS).join('|')}|\\d{1,2}(?:st|nd|rd|th))(?:\\s+[a-z][a-z-]*)?(?:\\s+(?:on|in|of|from)\\s+(?:the\\s+)?(?:product\\s+)?(?:list|page|grid|catalog(?:ue)?|shop|store|inventory|results?))?$`,
  'i',
);
const PRONOUN = /^(?:it|that|this|that one|this one|the same one|the same product|that product|this product)$/i;

/** Reads "add X to the cart" and its kin, or undefined when the clause is not about putting a product somewhere. */
export function readCartStep(clause: string, context: Pick<ReadingContext, 'lastItem'>): Reading | undefined {
  const added = matchOutsideQuotes(clause, ADD_TO) ?? matchOutsideQuotes(clause, ADD_PRODUCT);
  if (added === undefined) return undefined;
  return addTo(added[1]!, (added[2] ?? 'cart').toLowerCase(), context);
}

function addTo(phrase: string, place: string, context: Pick<ReadingContext, 'lastItem'>): Reading | undefined {
  let item = stripDeterminers(trimPunctuation(phrase));
  let times = 1;
  const counted = new RegExp(`^(${NUMBER})\\s+(.+)$`, 'i').exec(item);
  if (counted !== null && unquote(item) === undefined && POSITION.exec(item) === null) {
    times = Math.min(numberOf(counted[1]!) ?? 1, 10);
    item = times > 1 ? counted[2]!.replace(/([^s])s$/i, '$1') : counted[2]!;
  }
  if (times < 1) return undefined;
  const action = `Add to ${place}`;
  const control = (extra: Partial<Target>): Target => ({ by: 'description', role: 'button', name: action, exact: false, ...extra });

  let target: Target;
  let what: string;
  const position = unquote(item) === undefined ? POSITION.exec(item) : null;
  if (position !== null) {
    const word = position[1]!.toLowerCase();
    const nth = POSITIONS[word] ?? Number.parseInt(word, 10);
    target = control({ nth });
    what = `the ${word} product`;
  } else {
    const named = PRONOUN.test(item) ? context.lastItem : (unquote(item) ?? item);
    if (named === undefined || named.trim() === '') return undefined;
    target = control({ within: { text: named.slice(0, 300) } });
    what = JSON.stringify(named);
  }
  const step: PlanStep = { action: 'click', description: `Click the button that adds ${what} to the ${place}`, target };
  return steps(Array.from({ length: times }, () => step));
}
