/**
 * One predicate said of several subjects: "its checkbox and its label must not be visible", "the Save button and the
 * Cancel link should be enabled", "check that the total, the tax and the shipping are shown". Read as the same
 * statement about each subject, each by the usual readers; only when every one of them reads as an expectation.
 */
import { nlp } from './nlp.js';
import { startsWithVerb } from './clause-verbs.js';
import { splitList } from './item-steps.js';
import type { Reading } from './reading.js';
import { maskQuotes } from './words.js';

const LEAD = /^(?:(?:check|verify|ensure|make sure|confirm|expect|assert)(?:\s+that)?\s+)?/i;
/** Where the predicate starts: the first verb of being or modal after the subjects. */
const PREDICATE = /\s(?:should|must|will|shall|can|cannot|is|are|do|does|appear|appears|remain|remains|stay|stays)\b/i;

export function readSharedPredicate(clause: string, read: (clause: string) => Reading): Reading | undefined {
  const lead = LEAD.exec(clause)![0];
  const rest = clause.slice(lead.length);
  const at = PREDICATE.exec(maskQuotes(rest));
  if (at === null) return undefined;
  const subjects = splitList(rest.slice(0, at.index));
  if (subjects.length < 2 || !subjects.every(isNounPhrase)) return undefined;
  // "are" said of each one is "is"; a modal stays as it is.
  const predicate = rest.slice(at.index).replace(/^\s(?:are)\b/i, ' is').replace(/^\s(?:do)\b/i, ' does').replace(/^\s(appear|remain|stay)\b/i, ' $1s');
  const readings = subjects.map((subject) => read(`${lead}${subject}${predicate}`));
  const made: Array<Extract<Reading, { kind: 'steps' }>> = [];
  for (const reading of readings) {
    if (reading.kind !== 'steps' || reading.steps.length === 0 || !reading.steps.every((step) => step.action.startsWith('expect'))) return undefined;
    made.push(reading);
  }
  return {
    kind: 'steps',
    steps: made.flatMap((reading) => reading.steps),
    criteria: made.flatMap((reading) => reading.criteria),
    assumptions: [...new Set(made.flatMap((reading) => reading.assumptions))],
  };
}

/** A subject of a few words with no verb of its own ("its checkbox", "the Save button"), not a clause. */
function isNounPhrase(subject: string): boolean {
  const masked = maskQuotes(subject);
  if (startsWithVerb(subject) || masked.split(/\s+/).length > 6 || /^(?:with|in|on|at|by|for|from|to|that|which|who|whose|where|when|while|whilst|if|as|so|because|since|until|unless|though|although|then|now)\b/i.test(masked)) return false;
  return (nlp(masked).verbs().json() as unknown[]).length === 0;
}
