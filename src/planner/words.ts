/**
 * Text helpers of the step grammar: matching outside quoted labels, the words of semantic names, number words and
 * criterion keys. Everything here is pure and knows nothing about plans.
 */
import { quotedSpans } from './clauses.js';

/** `text` with every character inside a quoted span replaced by `x`: same length, so offsets stay valid. */
export function maskQuotes(text: string): string {
  let masked = text;
  for (const [from, to] of quotedSpans(text)) {
    masked = masked.slice(0, from + 1) + 'x'.repeat(to - from - 2) + masked.slice(to - 1);
  }
  return masked;
}

/**
 * `pattern` matched against `text` with its quoted spans masked (so that "the 'Sign in and pay' button" never
 * splits at the "and" inside the label); the groups are cut from `text` itself, so labels keep their words and case.
 */
export function matchOutsideQuotes(text: string, pattern: RegExp): Array<string | undefined> | undefined {
  const flags = pattern.flags.includes('d') ? pattern.flags : `${pattern.flags}d`;
  const match = new RegExp(pattern.source, flags.replace('g', '')).exec(maskQuotes(text));
  if (match?.indices === undefined) return undefined;
  return [...match.indices].map((span) => (span === undefined ? undefined : text.slice(span[0], span[1])));
}

/** The inside of `"…"` or `'…'` when `phrase` is exactly one quoted span. */
export function unquote(phrase: string): string | undefined {
  const match = /^(["'])(.*)\1$/s.exec(phrase.trim());
  return match !== null && !match[2].includes(match[1]) ? match[2] : undefined;
}

/** Removes a quoted span's quotes and keeps any other text: `'Total: $90'` → `Total: $90`. */
export function withoutQuotes(phrase: string): string {
  return unquote(phrase) ?? phrase;
}

// Possessives and demonstratives only in lower case: "Your name" and "This Month" are labels.
const LEADING_DETERMINERS = /^(?:(?:[Tt]he|THE|[Aa]n?|[Oo]n|[Aa]t|my|your|our|their|its|this|that|these|those|some|any)\s+)+/;

/** "the Desk Lamp" → "Desk Lamp"; "the Your name field" keeps "Your name". */
export function stripDeterminers(phrase: string): string {
  return phrase.trim().replace(LEADING_DETERMINERS, '').trim();
}

/** A phrase without the punctuation a sentence leaves at its end. */
export function trimPunctuation(phrase: string): string {
  return phrase.trim().replace(/[\s,;:!?]+$/, '').replace(/(?<![./])\.+$/, '').trim();
}

const CANONICAL: Readonly<Record<string, string>> = {
  mail: 'email',
  emails: 'email',
  pass: 'password',
  passwords: 'password',
  pwd: 'password',
  pw: 'password',
  passcode: 'password',
  passphrase: 'password',
  usernames: 'username',
  users: 'user',
  codes: 'code',
  coupons: 'coupon',
};

/**
 * The lower-case words of a semantic name or a phrase, so that `demoPassword`, `demo_password`, `DEMO-PASSWORD`
 * and "the demo password" share theirs. E-mail spellings and password abbreviations are one word each.
 */
export function wordsOf(text: string): string[] {
  return text
    .replace(/\be-mail/gi, 'email')
    .replace(/\buser\s+name/gi, 'username')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => CANONICAL[word] ?? word);
}

const NUMBER_WORDS: readonly string[] = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty',
];

/** Digits or a number word up to twenty ("a dozen" too); the pattern below finds them in a clause. */
export function numberOf(word: string): number | undefined {
  const lower = word.toLowerCase().trim();
  if (/^\d{1,5}$/.test(lower)) return Number(lower);
  if (lower === 'a dozen' || lower === 'dozen') return 12;
  const index = NUMBER_WORDS.indexOf(lower);
  return index < 0 ? undefined : index;
}
export const NUMBER = `(?:\\d{1,5}|a dozen|${NUMBER_WORDS.join('|')})`;

const KEY_STOP_WORDS = new Set(['the', 'a', 'an', 'that', 'this', 'is', 'are']);
const MAX_KEY = 60;

/**
 * A success-criterion key from an assertion's words: lower case, digits and words joined by `_`, articles left out,
 * at most 60 characters cut at a word: "the total shows $90" → `total_shows_90`. Stable for the same words.
 */
export function slugKey(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/'s\b/g, 's')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !KEY_STOP_WORDS.has(word));
  let key = '';
  for (const word of words) {
    const next = key === '' ? word : `${key}_${word}`;
    if (next.length > MAX_KEY) break;
    key = next;
  }
  return key === '' ? 'check' : key;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A phrase shortened for a question or an assumption. */
export function excerpt(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= 120 ? single : `${single.slice(0, 117)}…`;
}
