/**
 * Which success criterion with an evidence probe (a key of `evidenceProbeRefs`) an assertion means, by a loose
 * word match:
 *
 * - Words are those of `wordsOf` (camelCase, snake_case, spaces), without a plural "s", without "the", "is", "was",
 *   "has", "been", "that"; the words of existence (created, placed, exists, made, saved, stored, recorded, present,
 *   submitted) count as one word. So `order_created`, `orderExists` and "order exists" all read as order + exists.
 * - An assertion whose words include every word of a key means that key ("the order exists", "verify the order was
 *   placed" → `order_created`). Several keys: the one with the most words; a tie asks.
 * - An assertion that mentions the probe ("through the probe", "the evidence", "in the backend", "in the database")
 *   without a whole key means the key sharing the most words with it ("verify the order through the probe" →
 *   `order_created`); sharing none, the only configured key; else (none or several) it asks.
 */
import { wordsOf } from './words.js';

export type CriterionMatch =
  | { kind: 'criterion'; key: string }
  | { kind: 'none' }
  | { kind: 'question'; question: string; ambiguity: string; candidates: string[] };

const MENTIONS_PROBE = /\b(?:probes?|evidence|back-?end|server[- ]side|database)\b/i;
const EXISTENCE = new Set(['create', 'created', 'creates', 'exist', 'exists', 'existing', 'placed', 'made', 'saved', 'stored', 'recorded', 'present', 'submitted', 'persisted']);
const IGNORED = new Set(['the', 'a', 'an', 'is', 'are', 'was', 'were', 'has', 'have', 'been', 'be', 'that', 'there', 'of', 'for', 'it']);

export function mentionsProbe(clause: string): boolean {
  return MENTIONS_PROBE.test(clause);
}

export function matchCriterion(clause: string, criteria: readonly string[]): CriterionMatch {
  const words = new Set(matchWords(clause));
  const shared = (key: string) => matchWords(key).filter((word) => words.has(word)).length;
  const whole = criteria.filter((key) => matchWords(key).length > 0 && matchWords(key).every((word) => words.has(word)));
  const longest = top(whole, (key) => matchWords(key).length);
  if (longest.length === 1) return { kind: 'criterion', key: longest[0] };
  if (longest.length > 1) return ask(clause, longest);
  if (!mentionsProbe(clause)) return { kind: 'none' };

  const closest = top(criteria.filter((key) => shared(key) > 0), shared);
  if (closest.length === 1) return { kind: 'criterion', key: closest[0] };
  if (closest.length === 0 && criteria.length === 1) return { kind: 'criterion', key: criteria[0] };
  return ask(clause, closest.length > 0 ? closest : [...criteria]);
}

function ask(clause: string, candidates: string[]): CriterionMatch {
  if (candidates.length === 0) {
    return {
      kind: 'question',
      question: `Which evidence probe should verify "${clause}"? None is configured: add one to the repository's evidenceProbeRefs.`,
      ambiguity: `"${clause}" asks for an evidence probe, and the repository has none.`,
      candidates,
    };
  }
  return {
    kind: 'question',
    question: `Which evidence probe should verify "${clause}": ${candidates.join(' or ')}?`,
    ambiguity: `"${clause}" could mean the evidence probe of ${candidates.join(', ')}.`,
    candidates,
  };
}

function matchWords(text: string): string[] {
  return wordsOf(text)
    .filter((word) => !IGNORED.has(word))
    .map((word) => (EXISTENCE.has(word) ? 'exists' : word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

function top(keys: string[], score: (key: string) => number): string[] {
  const best = Math.max(...keys.map(score));
  return keys.filter((key) => score(key) === best);
}
