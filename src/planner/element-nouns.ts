/**
 * A subject that names a page element by what it is ("the cart badge", "the counter", "the notification dot"): a
 * description the run finds by the element's own hints (src/browser/hint-grounding.ts), never a text "badge" on the
 * page, and never the page as a whole ("the badge shows 1" is not "the page shows 1"). Icons, logos and thumbnails
 * stay images (./targets.ts); the run falls back to hints for those.
 */
import { namesElementNoun } from '../core/element-hints.js';
import type { Target } from '../core/plan.js';
import { stripDeterminers, trimPunctuation } from './words.js';

const LATER = /\s+(?:now|still|yet|again|also|then)$/i;
const IMAGE_NOUN = /\b(?:icons?|logos?|thumbnails?|avatars?)$/i;
/**
 * "the number on the cart icon", "the count next to the Inbox link", "the little number over the bell": the number a
 * page draws on a control is its badge ("cart badge"), whatever the page calls it in its classes (a badge or a count).
 */
const NUMBER_ON = /^(?:little\s+|small\s+|red\s+)?(?:number|count|figure|digit|counter)\s+(?:shown\s+|displayed\s+)?(?:on|next\s+to|beside|over|above|by)\s+(?:the\s+|its\s+|their\s+)?([\w-]+(?:\s+[\w-]+)?)\s+(?:icons?|buttons?|links?|symbols?|tabs?)$/i;

export function elementNounTarget(subject: string): Target | undefined {
  const phrase = stripDeterminers(trimPunctuation(subject).trim()).replace(LATER, '').trim();
  const on = NUMBER_ON.exec(phrase);
  if (on !== null) return { by: 'description', name: `${on[1]!.toLowerCase()} badge`, exact: false };
  if (phrase === '' || /["'“”‘’]/.test(phrase) || phrase.split(/\s+/).length > 4) return undefined;
  if (!namesElementNoun(phrase) || IMAGE_NOUN.test(phrase)) return undefined;
  return { by: 'description', name: phrase, exact: false };
}
