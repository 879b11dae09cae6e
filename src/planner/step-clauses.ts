/**
 * A task cut into the clauses that each ask for one thing ("Sign in as the demo user, add the Desk Lamp to the
 * cart and apply the coupon SAVE10" is three). Unlike `splitClauses` (clauses.ts, for the side-effect policy) it
 * never cuts inside a quoted label, and it drops the words people put before a verb ("then", "please", "step 2:").
 */
import { startsWithVerb } from './clause-verbs.js';
import { straightenQuotes } from './clauses.js';
import { maskQuotes } from './words.js';

export interface StepClause {
  /** The clause without its leading filler words, quotes straightened. */
  text: string;
  /** Offsets of the whole clause in the task: `start` ≤ offsets of its words < `end`. */
  start: number;
  end: number;
  /** It ends at a colon that a statement follows ("The change should be kept: the list shows …"). */
  colon?: boolean;
}

// A period splits only before white space or the end (`example.com`, `$9.99`); a comma only before a space
// (`$1,000`). "and then" is "and" followed by a clause that starts with the filler "then".
// Nor does the comma of a date ("May 1, 2024").
const SEPARATOR =
  /[.!?](?=\s|$)|[;\n]|(?<!\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?),(?=\s|$)|\s(?:and|but|&|while|whereas)\s|(?<!\b(?:should|must|will|would|can|could|may|might|shall|does|do|did|is|are))\s+then\s/gi;

const FILLER =
  /^(?:please|kindly|then|and|but|also|now(?!\s+that\b)|first|firstly|second|secondly|third|next|finally|lastly|afterwards|after that|once done|when done|just|simply|so|ok|okay|go ahead and|try to|make sure to|make sure you|be sure to|remember to|don't forget to|do not forget to|you should|you must|you need to|we need to|i want you to|i need you to|i'd like you to|i would like you to|let's|lets|let us|can you|could you|would you|will you|step \d+:?|\d+[.):]|[-*•])(?:\s+|$)/i;

/**
 * "sign in with email X and password Y", "log in as X and the demo password": an "and" that joins a password to
 * the credentials before it does not start a clause. The clause before must be a sign-in or name an identity
 * after "with"/"using"; the part after must be only a password (its word, then at most a value) or a quoted value.
 */
const CREDENTIALS_LEAD = /^(?:(?:sign|log)\s*-?\s*(?:in|on)\b|log(?:in|on)\b)|\b(?:with|using)\s+(?:(?:the|my|your)\s+)?(?:e-?mail(?:\s+address)?|username|user\s*name|user|login)\b/i;
const PASSWORD_ONLY =
  /^(?:"[^"]*"|'[^']*')$|^(?:"[^"]*"|'[^']*'|\S+)\s+(?:as|for)\s+(?:the\s+)?(?:password|passcode|pwd|pass)$|^(?:(?:the|my|your|a|our)\s+)?(?:[\w-]+\s+)?(?:password|passcode|passphrase|pwd|pass|[\w-]*pass(?:word|code)?[\w-]*)(?:\s*(?::|=|\sis)?\s*(?:"[^"]*"|'[^']*'|\S+))?$/i;

/** The task as the clauses are cut from it: quotes straightened, asides blanked (offsets unchanged). */
export function clauseText(task: string): string {
  return withoutAsides(straightenQuotes(task));
}

export function splitSteps(task: string): StepClause[] {
  const text = clauseText(task);
  const clauses: StepClause[] = [];
  let start = 0;
  for (const match of maskQuotes(text).matchAll(SEPARATOR)) {
    push(clauses, text, start, match.index);
    start = match.index + match[0].length;
  }
  push(clauses, text, start, text.length);
  return joinCredentials(clauses, text).flatMap((clause) => splitAtColon(clause, text));
}

/**
 * Parentheses and abbreviations, blanked out so that offsets stay: "(four spaces before and after)" is a remark and
 * goes; "('a', 'b')" holds values and only its brackets go; "e.g." and "i.e." end no sentence.
 */
function withoutAsides(text: string): string {
  const masked = maskQuotes(text);
  let result = text;
  // Only an aside: after a space, and words inside ("+1 (555) 010-0199" and "item(s)" keep theirs).
  for (const match of masked.matchAll(/(?<=^|\s)\(([^()]*)\)(?=$|[\s.,;:!?])/g)) {
    const inner = text.slice(match.index + 1, match.index + match[0].length - 1);
    const quoted = /["']/.test(inner);
    if (!quoted && !/\p{L}{2,}\s+\p{L}{2,}/u.test(inner)) continue;
    // Values stay ("('a', 'b')", "(password secret_sauce)"); a remark goes ("(four spaces before and after)").
    const values = quoted || /^\s*(?:the\s+)?(?:password|passcode|pwd|pass|user(?:name)?|e-?mail|login|zip|postal code|code|pin)\b/i.test(inner);
    // "(check the heading says 'Dynamic Controls')" is a clause of its own; "(heading 'Hovers')" a remark.
    const clause = /^\s*(?:check|verify|confirm|make sure|ensure|expect|see|click|press|type|enter|tick|select|wait)\b/i.test(inner);
    const blank = clause ? `;${inner};` : values && !/^\s*(?:heading|title|the heading|the title|the one titled|titled)\b/i.test(inner) ? ` ${inner} ` : ' '.repeat(match[0].length);
    result = result.slice(0, match.index) + blank + result.slice(match.index + match[0].length);
  }
  return result.replace(/\b(e)\.g\.|\b(i)\.e\./gi, (all) => all.replace(/\./g, ' '));
}

/**
 * "Click 'Active': it should show two todos" is two clauses; "Add three todos: 'a', 'b' and 'c'", "Email: x" and
 * "step 2:" are one. A colon splits when what follows says something of its own (a verb, or a subject with "should",
 * "is", "must") and what comes before is more than a label or a list's heading.
 */
function splitAtColon(clause: StepClause, text: string): StepClause[] {
  const masked = maskQuotes(clause.text);
  const colon = /:\s+/.exec(masked);
  if (colon === null) return [clause];
  const before = clause.text.slice(0, colon.index).trim();
  const after = clause.text.slice(colon.index + colon[0].length).trim();
  const says = /^(?:it|they|this|that|there|the|both|all|only|none|neither|each|every|\w+)\b.*\b(?:should|must|is|are|will|shows?|lists?|says?|reads?|has|have|appears?|gets?|becomes?)\b/i.test(maskQuotes(after));
  // A list's heading ("add three todos: 'a', 'b'") is followed by values; a statement with a modal after it
  // ("untick the first todo: the box should no longer be checked") is a clause of its own whatever comes before.
  const modal = /^(?:it|they|this|that|there|the|both|all|none|neither|each|every|only)\b.*\b(?:should|must|will|shall|cannot|can't|won't)\b/i.test(maskQuotes(after));
  // "Click 'Open': it lists two notes": an action before the colon is no label, however short.
  const heading = !modal && !startsWithVerb(before) && (/\b(?:todos?|items?|tasks?|entries|notes?|following|these|values?|fields?|details?|name|email|password|username)$/i.test(before) || before.split(/\s+/).length < 3);
  if (!says || heading || after === '') return [clause];
  const offset = text.indexOf(clause.text, clause.start);
  const base = offset === -1 ? clause.start : offset;
  const splitAt = base + colon.index;
  const rest = splitAtColon({ text: stripFiller(after), start: splitAt + colon[0].length, end: clause.end }, text);
  return [{ text: before, start: clause.start, end: splitAt, colon: true }, ...rest];
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
