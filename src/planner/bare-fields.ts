/**
 * "The text field is no longer disabled", "pick 'B' from the dropdown": a field or a select named only by its kind,
 * said of a page that has one. It is grounded on the live page as the one field there (src/core/grounding.ts: a description
 * that shares no word with the page means the one element of its kind); a page with several refuses, never guesses.
 */
import type { Target } from '../core/plan.js';
import { bareNounTarget } from './targets.js';
import { stripDeterminers, trimPunctuation } from './words.js';

const BARE_FIELD = /^(?:text ?(?:field|box|area|input)|input(?: field| box)?|field|textarea|input)$/i;
/** "pick 'Large' from the dropdown": the one select list there. */
const BARE_DROPDOWN = /^(?:drop-?down(?: list| menu| box)?|select(?: box| list| menu)?|combo ?box|list ?box|options? list)$/i;

export function bareFieldTarget(phrase: string): Target | undefined {
  const text = stripDeterminers(trimPunctuation(phrase));
  if (BARE_DROPDOWN.test(text)) return { by: 'description', role: 'combobox', name: text, exact: false };
  return BARE_FIELD.test(text) ? { by: 'description', role: 'textbox', name: text, exact: false } : undefined;
}

/** "The checkbox should be visible again": the one element of that kind on the page (a nameless role target). */
export function bareKindTarget(phrase: string): Target | undefined {
  const text = trimPunctuation(phrase);
  if (!/^(?:the|this|that)\s/i.test(text)) return undefined;
  const target = bareNounTarget(text, '', false);
  return target?.by === 'role' && target.role !== undefined && /^(?:checkbox|radio|switch|img|button|link)$/.test(target.role) ? { by: 'role', role: target.role, name: '', exact: false } : undefined;
}
