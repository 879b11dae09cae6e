/**
 * "The text field is no longer disabled", "the field is disabled again": a field named only by its kind, said of a
 * page that has one. It is grounded on the live page as the one field there (src/core/grounding.ts: a description
 * that shares no word with the page means the one element of its kind); a page with several refuses, never guesses.
 */
import type { Target } from '../core/plan.js';
import { stripDeterminers, trimPunctuation } from './words.js';

const BARE_FIELD = /^(?:text ?(?:field|box|area|input)|input(?: field| box)?|field|textarea|input)$/i;

export function bareFieldTarget(phrase: string): Target | undefined {
  const text = stripDeterminers(trimPunctuation(phrase));
  return BARE_FIELD.test(text) ? { by: 'description', role: 'textbox', name: text, exact: false } : undefined;
}
