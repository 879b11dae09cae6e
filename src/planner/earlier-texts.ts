/**
 * "The loading message", "the progress text", "the waiting indicator": a text the task quoted earlier while the page
 * was busy ("check that 'Loading...' appears, … make sure the loading message has gone"; "'Wait for it...' should
 * show while it works; … the loading text should be gone"). The phrase is read as that quoted text: the last one
 * before it that ends in an ellipsis or says it is loading, waiting or busy. With none, the clause is left as written.
 */
import { maskQuotes } from './words.js';

const PHRASE = /\b(?:the|that)\s+(?:loading|progress|waiting|wait|busy|processing)\s+(?:message|text|indicator|notice|label|line|note)\b/i;
const BUSY = /(?:\.\.\.|…)\s*$|\b(?:loading|please wait|wait for it|waiting|processing|in progress|working)\b/i;

/** The quoted texts of `text`, in order. */
function quoted(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"|(?<![\w])'([^']+)'(?![\w])/g)].map((match) => (match[1] ?? match[2])!.trim());
}

/** `clause` with "the loading message" replaced by the busy text quoted in `before`, if there is one. */
export function referToBusyText(clause: string, before: string): string {
  const found = PHRASE.exec(maskQuotes(clause));
  if (found === null) return clause;
  const busy = quoted(before).filter((text) => BUSY.test(text)).at(-1);
  if (busy === undefined || busy.includes('"')) return clause;
  return `${clause.slice(0, found.index)}"${busy}"${clause.slice(found.index + found[0].length)}`;
}
