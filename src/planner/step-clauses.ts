/**
 * A task cut into the clauses that each ask for one thing ("Sign in as the demo user, add the Desk Lamp to the
 * cart and apply the coupon SAVE10" is three). Unlike `splitClauses` (clauses.ts, for the side-effect policy) it
 * never cuts inside a quoted label, and it drops the words people put before a verb ("then", "please", "step 2:").
 */
import { straightenQuotes } from './clauses.js';
import { maskQuotes } from './words.js';

export interface StepClause {
  /** The clause without its leading filler words, quotes straightened. */
  text: string;
  /** Offsets of the whole clause in the task: `start` ≤ offsets of its words < `end`. */
  start: number;
  end: number;
}

// A period splits only before white space or the end (`example.com`, `$9.99`); a comma only before a space
// (`$1,000`). "and then" is "and" followed by a clause that starts with the filler "then".
// Nor does the comma of a date ("May 1, 2024").
const SEPARATOR =
  /[.!?](?=\s|$)|[;\n]|(?<!\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?),(?=\s|$)|\s(?:and|then|but|&)\s/gi;

const FILLER =
  /^(?:please|kindly|then|and|but|also|now|first|firstly|second|secondly|third|next|finally|lastly|afterwards|after that|once done|when done|just|simply|so|ok|okay|go ahead and|try to|make sure to|make sure you|be sure to|remember to|don't forget to|do not forget to|you should|you must|you need to|we need to|i want you to|i need you to|i'd like you to|i would like you to|let's|lets|let us|can you|could you|would you|will you|step \d+:?|\d+[.):]|[-*•])(?:\s+|$)/i;

/**
 * "sign in with email X and password Y", "log in as X and the demo password": an "and" that joins a password to
 * the credentials before it does not start a clause. The clause before must be a sign-in or name an identity
 * after "with"/"using"; the part after must be only a password (its word, then at most a value) or a quoted value.
 */
const CREDENTIALS_LEAD = /^(?:(?:sign|log)\s*-?\s*(?:in|on)\b|log(?:in|on)\b)|\b(?:with|using)\s+(?:(?:the|my|your)\s+)?(?:e-?mail(?:\s+address)?|username|user\s*name|user|login)\b/i;
const PASSWORD_ONLY =
  /^(?:"[^"]*"|'[^']*')$|^(?:(?:the|my|your|a|our)\s+)?(?:[\w-]+\s+)?(?:password|passcode|passphrase|pwd|pass|[\w-]*pass(?:word|code)?[\w-]*)(?:\s*(?::|=|\sis)?\s*(?:"[^"]*"|'[^']*'|\S+))?$/i;

export function splitSteps(task: string): StepClause[] {
  const text = straightenQuotes(task);
  const clauses: StepClause[] = [];
  let start = 0;
  for (const match of maskQuotes(text).matchAll(SEPARATOR)) {
    push(clauses, text, start, match.index);
    start = match.index + match[0].length;
  }
  push(clauses, text, start, text.length);
  return joinCredentials(clauses, text);
}

function joinCredentials(clauses: StepClause[], text: string): StepClause[] {
  const joined: StepClause[] = [];
  for (const clause of clauses) {
    const before = joined.at(-1);
    const between = before === undefined ? '' : text.slice(before.end, clause.start);
    if (before !== undefined && /^\s(?:and|&)\s$/i.test(between) && CREDENTIALS_LEAD.test(before.text) && PASSWORD_ONLY.test(clause.text.trim())) {
      joined[joined.length - 1] = { text: stripFiller(text.slice(before.start, clause.end)), start: before.start, end: clause.end };
    } else {
      joined.push(clause);
    }
  }
  return joined;
}

function push(clauses: StepClause[], text: string, start: number, end: number): void {
  const clause = stripFiller(text.slice(start, end));
  // "1." of a numbered list ends at its period: a number alone is no clause.
  if (clause !== '' && !/^\d{1,3}$/.test(clause)) clauses.push({ text: clause, start, end });
}

/** "then please click Apply" → "click Apply". */
export function stripFiller(text: string): string {
  let rest = text.trim();
  for (let match = FILLER.exec(rest); match !== null && match[0] !== ''; match = FILLER.exec(rest)) {
    rest = rest.slice(match[0].length).trim();
  }
  return rest;
}
