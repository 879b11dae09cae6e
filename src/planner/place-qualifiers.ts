/**
 * A clause that only says where the assertion before it holds: "confirm that neither todo is completed, on the page
 * and in local storage", "check the count, both on screen and in storage". Storage is a place of its own (the
 * assertion is read again about what the page keeps there: storage-steps.ts); the page is where an assertion is read
 * anyway.
 */
export type Place = 'page' | 'storage';

const PAGE = /^(?:(?:both|also|and)\s+)?(?:on|in)\s+(?:the\s+)?(?:page|screen|ui|user interface|list|app|browser window|view)$/i;
const STORAGE = /^(?:(?:both|also|and)\s+)?(?:in|inside)\s+(?:the\s+)?(?:(?:browser'?s?\s+)?local\s*-?\s*storage|storage|browser'?s?\s+storage)$/i;

/** The place a clause names, when naming a place is all it does. */
export function placeOf(clause: string): Place | undefined {
  const text = clause.trim().replace(/[.,;!]+$/, '');
  if (STORAGE.test(text)) return 'storage';
  if (PAGE.test(text)) return 'page';
  return undefined;
}
