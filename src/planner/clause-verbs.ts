/**
 * Whether a clause starts with a verb of its own, or goes on the clause before it: "add 'a', 'b' and 'c'" is one
 * clause with a list, "type 'a' and press Enter" two. Part-of-speech tagging is compromise's (a maintained English
 * tagger, pure JavaScript, no model download); the verbs a task's clauses start with are listed too, since a tagger
 * reading a lone clause takes "type" or "check" at its start for a noun as often as not.
 */
import { nlp } from './nlp.js';
import { maskQuotes } from './words.js';

const TASK_VERBS = new Set(
  (
    'add|apply|attach|book|buy|cancel|change|check|choose|clear|click|close|complete|confirm|continue|create|delete|deselect|double-click|doubleclick|drag|edit|empty|ensure|enter|expect|expand|fill|filter|finish|follow|go|hit|hover|input|leave|log|make|mark|move|navigate|open|pay|pick|place|press|put|refresh|reload|remove|rename|replace|reset|return|save|scroll|search|see|select|send|set|sign|sort|submit|switch|tap|test|tick|toggle|type|uncheck|untick|update|upload|use|verify|visit|wait|write|assert|validate|observe|confirm|try|view|read|look|find|reopen|restore|archive|star|like|drop|stop|start|show|hide|collapse|enable|disable|accept|dismiss|expect|be'
  ).split('|'),
);

/** The clause's first word is a verb: a new clause, not the next item of a list or the rest of a sentence. */
export function startsWithVerb(clause: string): boolean {
  const masked = maskQuotes(clause).trim();
  if (masked === '' || /^["']/.test(clause.trim())) return false;
  const first = /^[\p{L}-]+/u.exec(masked)?.[0]?.toLowerCase();
  if (first === undefined) return false;
  if (TASK_VERBS.has(first)) return true;
  const terms = nlp(clause).terms().json() as Array<{ terms: Array<{ tags: string[] }> }>;
  const tags = terms[0]?.terms[0]?.tags ?? [];
  // "completed", "checked": a state said of the subject before ("checked and completed"), not an imperative.
  return tags.includes('Verb') && !tags.includes('Noun') && !tags.includes('Gerund') && !tags.includes('PastTense');
}
