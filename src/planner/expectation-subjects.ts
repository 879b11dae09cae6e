/**
 * What the subject of "<subject> says X" is about when it names an element without naming which one by its text:
 * the page's title ("the title", "the page title"), one of the page's elements of a role ("the heading", "the main
 * heading", "the button"), or a field whose value is meant ("the Email field", "the value of the Coupon field").
 * Such an expectation fails by saying what the page shows instead (the headings, the title, the value), where
 * reading "the heading says 'Pricing'" as "a heading named Pricing is visible" could only say nothing matches.
 */
import type { Target } from '../core/plan.js';
import { bareNounTarget, readTarget } from './targets.js';
import { trimPunctuation } from './words.js';

export type ExpectationSubject = { kind: 'title' } | { kind: 'role'; role: string } | { kind: 'field'; target: Target };

const TITLE = /^(?:the\s+)?(?:(?:page|tab|document|window|browser|site|html)(?:'s)?\s+)?title$/i;
const MAIN_HEADING = /^(?:the\s+)?(?:main|page(?:'s)?|top|primary|first|big|large)\s+(?:heading|header|headline|title)$/i;
const VALUE_OF = /^(?:the\s+)?(?:current\s+)?value\s+(?:of|in)\s+(.+)$/i;
const VALUE_SUFFIX = /^(.+?)(?:'s|’s)\s+(?:current\s+)?value$/i;
/** Roles whose elements hold a value a person types or picks. */
const FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** The subject's kind, or undefined for any other subject (the page, a named element, a text). */
export function expectationSubject(phrase: string): ExpectationSubject | undefined {
  const subject = trimPunctuation(phrase).trim();
  if (TITLE.test(subject)) return { kind: 'title' };
  if (MAIN_HEADING.test(subject)) return { kind: 'role', role: 'heading' };
  const valueOf = VALUE_OF.exec(subject)?.[1] ?? VALUE_SUFFIX.exec(subject)?.[1];
  if (valueOf !== undefined) {
    const target = readTarget(valueOf, 'field');
    return target === undefined ? undefined : { kind: 'field', target };
  }
  // "the button", "the heading": a role noun alone (its name is a placeholder: only the role is kept).
  const bare = bareNounTarget(subject, '-', false);
  if (bare !== undefined) return bare.by === 'role' && bare.role !== undefined ? { kind: 'role', role: bare.role } : undefined;
  const target = readTarget(subject, 'text');
  if (target !== undefined && (target.by === 'label' || target.by === 'placeholder' || ((target.by === 'role' || target.by === 'description') && FIELD_ROLES.has(target.role ?? '')))) {
    return { kind: 'field', target };
  }
  return undefined;
}
