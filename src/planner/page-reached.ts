/**
 * Pages people name by how they got there, not by a name the app uses: "you are back on the product list", "it takes
 * you back to the inbox" (the page before the one just left), "its details page opens", "the product page of the
 * Trail Backpack opens" (the page the last action led to, whatever the app calls it). The run judges these by where
 * the page has been (src/browser/page-history.ts) when the address and the page do not say the name, and compiles
 * the address it found.
 */
const BACK = /\bback\s+(?:on|at|to|in)\s+/i;
/** The page of one thing: its details, product, item or info page. */
const OWN_PAGE = /^(?:(?:its|their|the)\s+(?:details?|product|item|info(?:rmation)?)\s+page(?:\s+(?:of|for)\s+.+)?|.+?(?:'s|’s)\s+(?:details?|product|item|info(?:rmation)?)\s+page)$/i;

/** How a page said to be landed on ("you are back on X") was reached, if the words say. */
export function landedReached(body: string): 'back' | undefined {
  return BACK.test(body) ? 'back' : undefined;
}

/** How a page said to open ("its details page opens") was reached, if it is a thing's own page. */
export function openedReached(subject: string): 'new' | undefined {
  return OWN_PAGE.test(subject.trim()) ? 'new' : undefined;
}
