/**
 * Page elements people name by what they are, not by a name the page gives them: "the cart badge", "the counter",
 * "the cart icon". Such an element often has no accessible name at all (a number in a span, a link drawn as a
 * background image), and the page's own hints say what it is: its class names, its id, its `data-test`/`data-testid`
 * (`shopping_cart_badge`, `cart-counter`). This decides, without a browser, which words a phrase asks for and how well
 * an element's hints carry them; src/browser/hint-grounding.ts reads the hints on the live page.
 */

/** Nouns for elements a page seldom names: what the element is, not what it says. */
const ELEMENT_NOUNS: readonly string[] = ['badge', 'counter', 'count', 'icon', 'logo', 'avatar', 'spinner', 'indicator', 'bubble', 'pill', 'chip', 'dot', 'thumbnail'];
const NOUN = new RegExp(`^(?:${ELEMENT_NOUNS.join('|')})s?$`, 'i');

/** Words that say nothing about which element is meant. */
const FILLER = new Set(['the', 'a', 'an', 'its', 'their', 'my', 'our', 'your', 'this', 'that', 'now', 'still', 'yet', 'again', 'also', 'on', 'of', 'in', 'at', 'top', 'right', 'left', 'bottom', 'corner', 'little', 'small', 'red']);

/** The lowercase words of a phrase or of an element's hint (`shopping_cart_badge`, `cartCounter`, `nav-cart`). */
export function hintWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .map(singular);
}

function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/**
 * The words a class or id says a noun with: a counter is often `…-count` (`todo-count`, `cart-count`), and the number
 * drawn on an icon that people call its badge is as often a count in the page's classes.
 */
const NOUN_FORMS: Readonly<Record<string, readonly string[]>> = { counter: ['counter', 'count'], count: ['count', 'counter'], badge: ['badge', 'count', 'counter'] };

function nounForms(noun: string): readonly string[] {
  return NOUN_FORMS[noun] ?? [noun];
}

/** The phrase names an element by what it is ("cart badge", "the counter"): its last word is such a noun. */
export function namesElementNoun(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/);
  return words.length > 0 && NOUN.test(words.at(-1)!.replace(/[^\w]/g, ''));
}

/** What a phrase asks of an element's hints: its head noun (when an element noun) and the words before it. */
export interface HintQuery {
  noun?: string;
  words: string[];
}

export function hintQuery(phrase: string): HintQuery {
  const words = hintWords(phrase).filter((word) => !FILLER.has(word));
  const last = words.at(-1);
  if (last !== undefined && NOUN.test(last)) return { noun: last, words: words.slice(0, -1) };
  return { words };
}

/**
 * How well an element's hints carry the query: the number of its words found among them, or 0 when they do not
 * carry what is asked. A noun such as "badge" or "counter" must be said by the hints; "icon", "logo" and "thumbnail"
 * are what an element looks like and seldom appear in a class, so the words before them suffice.
 */
export function hintScore(query: HintQuery, hints: readonly string[]): number {
  const have = new Set(hints.flatMap(hintWords));
  const words = query.words.filter((word) => have.has(word)).length;
  const noun = query.noun !== undefined && nounForms(query.noun).some((form) => have.has(form)) ? 1 : 0;
  const lookNoun = query.noun === undefined || ['icon', 'logo', 'thumbnail', 'avatar'].includes(query.noun);
  if (noun === 0 && (!lookNoun || words === 0)) return 0;
  // Every word the query says must be there, so "the cart badge" is never a wishlist's badge.
  if (words < query.words.length) return 0;
  return noun + words;
}
