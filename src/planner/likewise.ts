/**
 * Two more clauses that mean something only beside the one before them (clause-continuations.ts):
 * - "…the loading text should be gone, and so should the checkbox": the state just said, said of another subject;
 * - "'Wait…' should show while it works": a while-clause that only says the page is busy, no check of its own (read
 *   before any other reader, which would take "it works" for a check that the page loads).
 */
import type { Continuation, ContinuationInput } from './clause-continuations.js';
import { excerpt } from './words.js';

/** "(so) should the checkbox", "so does the counter": what is left of "and so should X" once "so" is read as filler. */
const SO_SHOULD = /^(?:so\s+)?(?:should|must|will|does|do|is|are)\s+((?:the|its|their|this|that)\s+.+|it|they)$/i;
const BUSY = /^(?:it|the (?:page|app|site))\s+(?:works|is working|loads|is loading|runs|is running|processes|is processing|is busy|thinks|is thinking|waits|is waiting)$/i;

export function likewise({ clause, last, read }: ContinuationInput): Continuation | undefined {
  const match = SO_SHOULD.exec(clause.trim());
  const states = new Set(last?.steps.map((step) => (step.action === 'expectState' ? step.state : undefined)));
  const state = states.size === 1 ? [...states][0] : undefined;
  if (match === null || state === undefined) return undefined;
  const reading = read(`${match[1]!} should be ${state}`);
  if (reading.kind !== 'steps' || reading.steps.length === 0 || !reading.steps.every((step) => step.action === 'expectState')) return undefined;
  return { kind: 'steps', reading };
}

/** The assumption that says so when `clause`, after "while", only says the page is busy; else undefined. */
export function busyWhile(clause: string, before: string): string | undefined {
  if (!/\b(?:while|whilst)\s*$/i.test(before) || !BUSY.test(clause.trim())) return undefined;
  return `Reads "while ${excerpt(clause)}" as when the check before it applies: no step of its own.`;
}
