/**
 * A page a task names in words of its own ("the order complete page", "the payment details screen") when the app's
 * address and headings say it in theirs: /checkout-complete and "Thank you for your order!". The page is that one
 * when each word of the name (two words at least; "page" and the like left out) is a word of the address's path or
 * of the page's title or a heading, plurals alike. Not the page's whole text: a button "Back to orders" on another
 * page must not make it the orders page.
 */
const NOT_NAMING = new Set(['the', 'a', 'an', 'page', 'screen', 'view', 'step', 'tab', 'form', 'of', 'for', 'and', 'my', 'your', 'our']);

function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/** Whether every word of `name` is a word of the URL's path or of one of `headings` (the title among them). */
export function pageNamedByWords(name: string, url: string, headings: readonly string[]): boolean {
  const wanted = [...new Set(wordsOf(name).filter((word) => !NOT_NAMING.has(word)))];
  if (wanted.length < 2) return false;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // A relative or odd address: its words as written.
  }
  const have = new Set([...wordsOf(path), ...headings.flatMap(wordsOf)]);
  return wanted.every((word) => have.has(word));
}
