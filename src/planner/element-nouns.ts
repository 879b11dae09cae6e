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

export function elementNounTarget(subject: string): Target | undefined {
  const phrase = stripDeterminers(trimPunctuation(subject).trim()).replace(LATER, '').trim();
  if (phrase === '' || /["'“”‘’]/.test(phrase) || phrase.split(/\s+/).length > 4) return undefined;
  if (!namesElementNoun(phrase) || IMAGE_NOUN.test(phrase)) return undefined;
  return { by: 'description', name: phrase, exact: false };
}
