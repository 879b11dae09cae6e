/**
 * When the case of an expected text matters. Expectations compare the page's rendered text (innerText) ignoring case,
 * because CSS `text-transform` changes what innerText says ("Add to cart" rendered as ADD TO CART). But a text the
 * person wrote in mixed case ("You entered: random text") says its case too: a page that shows "You entered: RANDOM
 * TEXT" must not pass it. So a mixed-case text must also be in the page's own text (textContent, which no stylesheet
 * changes) letter for letter, white space aside; a text in one case only says nothing about case.
 */

/** The text has both upper-case and lower-case letters. */
export function caseMatters(wanted: string): boolean {
  return /\p{Lu}/u.test(wanted) && /\p{Ll}/u.test(wanted);
}

/** `source` (the page's own text, before any stylesheet) holds `wanted` with its case, white space collapsed. */
export function holdsWithCase(source: string, wanted: string): boolean {
  const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
  return !caseMatters(wanted) || collapse(source).includes(collapse(wanted));
}
