/**
 * Several states said in one breath: "with the first one checked and completed and the second one not", "'a' should
 * still be checked and completed", "with 'a' done and 'b' still open". Each subject (an item the task named or refers
 * to) gets its state; a state word alone goes on the subject before it ("checked and completed"); "not" alone says the
 * state before did not hold for this one. Completed, done and checked are one state of a list item: its box ticked.
 */
import type { PlanStep } from '../core/plan.js';
import { normalise } from './assertions.js';
import { itemRefs, splitList } from './item-steps.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { matchOutsideQuotes, slugKey, trimPunctuation } from './words.js';

const DONE = 'complete|completed|done|finished|checked|ticked';
const OPEN = 'active|incomplete|uncompleted|unchecked|unticked|open|pending|not done';
const STATE = new RegExp(`^(?:(?:still|now|also)\\s+)?(not\\s+)?(${DONE}|${OPEN})$`, 'i');
const LEAD = /^(?:(?:check|verify|ensure|make sure|confirm|expect|assert)(?:\s+that)?\s+)/i;

export function readItemStates(clause: string, context: ReadingContext): Reading | undefined {
  if (context.items.length === 0) return undefined;
  const body = normalise(trimPunctuation(clause).replace(LEAD, ''));
  // "with …": the states are the whole clause; "'a' is checked and completed": the subject, then its states.
  const withStates = /^with\s+(.+)$/i.exec(body)?.[1];
  const stated = withStates === undefined ? matchOutsideQuotes(body, /^(.+?)\s+(?:is|are)\s+(.+)$/i) : undefined;
  const parts = withStates !== undefined ? splitList(withStates) : stated === undefined ? [] : [`${stated[1]!} ${splitList(stated[2]!)[0] ?? ''}`, ...splitList(stated[2]!).slice(1)];
  if (parts.length < 2) return undefined;

  const said: Array<{ item: string; done: boolean }> = [];
  let subject: string[] | undefined;
  let last: boolean | undefined;
  for (const part of parts) {
    const alone = STATE.exec(part);
    if (alone !== null && subject !== undefined) {
      last = isDone(alone);
      for (const item of subject) said.push({ item, done: last });
      continue;
    }
    const negated = /^(.+?)\s+(?:is\s+|are\s+)?not$/i.exec(part);
    if (negated !== null && last !== undefined) {
      subject = itemsOf(negated[1]!, context);
      if (subject === undefined) return undefined;
      for (const item of subject) said.push({ item, done: !last });
      continue;
    }
    const full = /^(.+?)\s+(?:is\s+|are\s+)?((?:(?:still|now|also)\s+)?(?:not\s+)?(?:not done|\S+))$/i.exec(part);
    const state = full === null ? null : STATE.exec(full[2]!);
    subject = full === null ? undefined : itemsOf(full[1]!, context);
    if (state === null || subject === undefined) return undefined;
    last = isDone(state);
    for (const item of subject) said.push({ item, done: last });
  }
  // One state per item: "checked and completed" is said once; "checked and not completed" is no reading.
  const byItem = new Map<string, boolean>();
  for (const { item, done } of said) {
    if (byItem.has(item) && byItem.get(item) !== done) return undefined;
    byItem.set(item, done);
  }
  const key = slugKey(body);
  const made = [...byItem].map(([item, done]): PlanStep => ({
    action: 'expectState',
    description: `Expect ${JSON.stringify(item)} to be ${done ? 'completed (its checkbox checked)' : 'not completed (its checkbox unchecked)'}`,
    target: { by: 'role', role: 'checkbox', name: '', exact: false, within: { text: item } },
    state: done ? 'checked' : 'unchecked',
    criterion: key,
  }));
  return steps(made, [], [{ key, description: body.length > 200 ? `${body.slice(0, 197)}…` : body }]);
}

function isDone(state: RegExpExecArray): boolean {
  return new RegExp(`^(?:${DONE})$`, 'i').test(state[2]!) === (state[1] === undefined);
}

function itemsOf(phrase: string, context: ReadingContext): string[] | undefined {
  const refs = itemRefs(phrase, context);
  if (refs === undefined || refs.length === 0 || refs.some((ref) => !('text' in ref))) return undefined;
  return refs.map((ref) => (ref as { text: string }).text);
}
