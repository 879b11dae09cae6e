/**
 * Clauses that mean something only beside the one before them, tried when no reader takes a clause alone:
 * - a place for the assertion before ("…, on the page and in local storage": place-qualifiers.ts);
 * - the contrast "…, only the edit field": the one left has the opposite of the state the assertion before said;
 * - a condition ("While it is being edited, …"): when the checks after it apply;
 * - a summary before a colon ("The change should be kept: the list shows …"): said by what follows the colon;
 * - "and so should the checkbox", "while it works" (likewise.ts).
 * Each gives steps (read by the usual readers) or an assumption saying why it adds none; none of them guesses: a
 * clause that fits none is asked about as before.
 */
import type { PlanStep } from '../core/plan.js';
import { startsWithVerb } from './clause-verbs.js';
import { likewise } from './likewise.js';
import { placeOf } from './place-qualifiers.js';
import type { Reading } from './reading.js';
import { excerpt, maskQuotes } from './words.js';

/** The last clause read as assertions only, with its steps. */
export interface LastAssertion {
  text: string;
  steps: readonly PlanStep[];
}

export type Continuation = { kind: 'steps'; reading: Reading & { kind: 'steps' } } | { kind: 'remark'; assumption: string };

/** A clause that says something of its own ("the banner should then glow"). */
const STATEMENT = /\b(?:should|must|will|would|shall|is|are|was|were|has been|have been)\b/i;
/** What "only the others" are when the assertion before said a state: the word for its opposite. */
const OPPOSITE_STATE: Readonly<Record<string, string>> = { hidden: 'visible', visible: 'hidden', unchecked: 'checked', checked: 'unchecked', disabled: 'enabled', enabled: 'disabled', unselected: 'selected', selected: 'unselected' };

export interface ContinuationInput {
  clause: string;
  /** The task's text before the clause (its separator included). */
  before: string;
  /** The clause ends at a colon that a statement follows. */
  colon: boolean;
  last: LastAssertion | undefined;
  read(text: string): Reading;
}

export function readContinuation(input: ContinuationInput): Continuation | undefined {
  return placed(input) ?? contrasted(input) ?? likewise(input) ?? condition(input) ?? summary(input);
}

function placed({ clause, last, read }: ContinuationInput): Continuation | undefined {
  const place = placeOf(clause);
  if (place === undefined || last === undefined) return undefined;
  if (place === 'page') {
    if (!last.steps.some((step) => step.action !== 'expectStorage')) return undefined;
    return { kind: 'remark', assumption: `Reads "${excerpt(clause)}" as where "${excerpt(last.text)}" is checked: on the page, as it is.` };
  }
  const reading = read(`${last.text} in local storage`);
  if (reading.kind !== 'steps' || !reading.steps.some((step) => step.action === 'expectStorage')) return undefined;
  return { kind: 'steps', reading: { ...reading, steps: reading.steps.filter((step) => step.action === 'expectStorage') } };
}

function contrasted({ clause, last, read }: ContinuationInput): Continuation | undefined {
  const only = /^(?:but\s+)?(?:only|just)\s+(.+)$/i.exec(clause);
  const states = new Set(last?.steps.map((step) => (step.action === 'expectState' ? step.state : undefined)));
  const state = states.size === 1 ? [...states][0] : undefined;
  const word = state === undefined ? undefined : OPPOSITE_STATE[state];
  if (only === null || word === undefined) return undefined;
  const reading = read(`${only[1]!} should be ${word}`);
  if (reading.kind !== 'steps' || reading.steps.length === 0 || !reading.steps.every((step) => step.action === 'expectState')) return undefined;
  return { kind: 'steps', reading };
}

function condition({ clause, before }: ContinuationInput): Continuation | undefined {
  if (!/\b(?:while|whilst|as long as)\s*$/i.test(before) || !STATEMENT.test(maskQuotes(clause)) || startsWithVerb(clause)) return undefined;
  return { kind: 'remark', assumption: `Reads "while ${excerpt(clause)}" as when the checks after it apply: no step of its own.` };
}

function summary({ clause, colon }: ContinuationInput): Continuation | undefined {
  if (!colon || !STATEMENT.test(maskQuotes(clause)) || startsWithVerb(clause)) return undefined;
  return { kind: 'remark', assumption: `Reads "${excerpt(clause)}" as said by what follows its colon: no step of its own.` };
}
