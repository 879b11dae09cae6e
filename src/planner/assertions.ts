/**
 * Assertions: "check that the total shows $90", "make sure the page says 'Order confirmed'", "verify the URL
 * contains /orders", "expect 3 plans", or a bare "the Plans heading is visible". Each becomes one expect step with a
 * success criterion keyed by its words (`slugKey`: "the total shows $90" → `total_shows_90`), unless it matches a
 * criterion that has an evidence probe (probe-criteria.ts): then it is a `probe` step for that criterion's key.
 */
import type { PlanStep } from '../core/plan.js';
import { FORMS, type AssertionStep } from './assertion-forms.js';
import { quotedSpans } from './clauses.js';
import { matchCriterion, mentionsProbe } from './probe-criteria.js';
import { question, steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { nameInAnswer } from './values.js';
import { excerpt, maskQuotes, matchOutsideQuotes, slugKey, stripDeterminers, trimPunctuation } from './words.js';

const LEAD =
  /^(double[- ]check|check(?![ -]?out\b)|verify|ensure|make sure|be sure|confirm|assert|expect|validate|see|observe|test)(?:\s+(that|whether|if|to see (?:that|if|whether)))?\s+(.+)$/i;
/** Leads that only start an assertion with "that", "whether" or "if" ("see that …", not "see the pricing page"). */
const WEAK_LEAD = /^(?:see|observe|test)$/i;
/** A bare clause is an assertion only when it says something about its subject. */
const PREDICATE =
  /\s(?:is|are|was|were|has|have|shows?|says?|lists?|displays?|contains?|includes?|reads?|appears?|exists?|loads?|works?|links?|returns?|equals?|matches|opens|lands?|ends? up|redirects?|does not|doesn't|should|must|will)\b/i;

export interface AssertionOptions {
  /** Also read a clause without a lead verb ("the Plans heading is visible") when it states something. */
  bare: boolean;
  /**
   * Read a led clause that fits no shape ("check the total") as "the page shows the text 'total'", with an
   * assumption saying so. The step grammar turns this on only after every action reader has declined the clause.
   */
  fallback: boolean;
}

export function readAssertion(clause: string, context: ReadingContext, options: AssertionOptions): Reading {
  const lead = matchOutsideQuotes(clause, LEAD);
  const led = lead !== undefined && (lead[2] !== undefined || !WEAK_LEAD.test(lead[1]!));
  const body = trimPunctuation(led ? lead[3]! : clause);
  const normal = normalise(body);
  if (!led && (!options.bare || !PREDICATE.test(` ${maskQuotes(normal)}`))) return UNKNOWN;

  const probe = readProbe(clause, context);
  if (probe !== undefined) return probe;

  for (const read of FORMS) {
    const form = read(normal, context);
    if (form !== undefined) return withCriterion([...form.before], form.check, body, form.assumptions);
  }
  if (!led || !options.fallback) return UNKNOWN;
  const shown = stripDeterminers(body);
  if (shown === '' || /^(?:it|them|this|that|everything|all)$/i.test(shown)) return UNKNOWN;
  return withCriterion(
    [],
    { action: 'expectText', description: `Expect the page to show ${JSON.stringify(shown)}`, text: shown },
    body,
    [`Reads "${excerpt(clause)}" as: the page shows the text ${JSON.stringify(shown)}.`],
  );
}

function withCriterion(before: PlanStep[], check: AssertionStep, body: string, assumptions: string[]): Reading {
  const key = slugKey(body);
  return steps([...before, { ...check, criterion: key }], assumptions, [{ key, description: excerpt(body) }]);
}

/** A probe step when the clause means a criterion with an evidence probe; a question when it asks for one unclearly. */
function readProbe(clause: string, context: ReadingContext): Reading | undefined {
  if (context.evidenceCriteria.length === 0 && !mentionsProbe(clause)) return undefined;
  const match = matchCriterion(clause, context.evidenceCriteria);
  if (match.kind === 'none') return undefined;
  let key: string | undefined;
  if (match.kind === 'criterion') key = match.key;
  else {
    const answer = context.answerTo(match.question);
    key = answer === undefined ? undefined : nameInAnswer(answer, match.candidates.length > 0 ? match.candidates : context.evidenceCriteria);
    if (key === undefined) return question(match.question, match.ambiguity);
  }
  const probe: PlanStep = { action: 'probe', description: `Verify ${key} with its evidence probe`, criterion: key };
  return steps([probe], [], [{ key, description: excerpt(clause) }]);
}

const MODALS = '(?:should|must|will|would|can|could|does|do|shall)';
const ADVERBS = '(?:(?:still|now|also|always|then|again|by then|afterwards|finally)\\s+){0,2}';
const VERBS = 'show|say|contain|include|display|list|read|have|appear|exist|load|work|open|link|return|equal|match|mention|render|respond|succeed';

/** "should show", "must be", "to contain" (after "expect … to"), "isn't": the plain present forms the shapes read. */
export function normalise(body: string): string {
  // "'Wait…' should show" with nothing after it: the text appears.
  // "… should disappear again": gone, and "again" says when, not what.
  return normaliseSegments(body)
    .replace(/\b(?:should|must|will)\s+(?:now\s+)?(?:disappear|vanish|go away)\b/gi, 'is gone')
    .replace(/(["'])\s+shows(?:\s+up)?$/i, '$1 appears')
    .replace(/\s+again$/i, '');
}

function normaliseSegments(body: string): string {
  return outsideQuotes(body, (segment) =>
    segment
      // First, so that "should no longer be" reads as "should not be" below.
      .replace(/\bno longer\b/gi, 'not')
      .replace(new RegExp(`\\b${MODALS}\\s+(not\\s+)?${ADVERBS}be\\b`, 'gi'), (_all, not?: string) => (not ? 'is not' : 'is'))
      .replace(new RegExp(`\\b(?:${MODALS}\\s+|to\\s+)(not\\s+)?${ADVERBS}(${VERBS})\\b`, 'gi'), (_all, not: string | undefined, verb: string) =>
        not ? `does not ${verb}` : third(verb),
      )
      .replace(/\bto\s+(not\s+)?be\b/gi, (_all, not?: string) => (not ? 'is not' : 'is'))
      // "'Loading' has disappeared", "it vanishes": as "is gone".
      .replace(/\b(?:(?:has|have)\s+(?:now\s+|already\s+)?(?:disappeared|vanished|gone away|gone(?!\s+(?:to|into|through|back|up|down|out|over|from)\b))|(?:disappears|vanishes))\b/gi, 'is gone')
      .replace(/\bisn't\b/gi, 'is not')
      .replace(/\baren't\b/gi, 'are not')
      .replace(/\bdoesn't\b/gi, 'does not')
      .replace(/\bdon't\b/gi, 'do not'),
  );
}

function third(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower === 'have') return 'has';
  if (lower === 'match') return 'matches';
  return `${verb}s`;
}

function outsideQuotes(text: string, change: (segment: string) => string): string {
  let result = '';
  let at = 0;
  for (const [from, to] of quotedSpans(text)) {
    result += change(text.slice(at, from)) + text.slice(from, to);
    at = to;
  }
  return result + change(text.slice(at));
}

