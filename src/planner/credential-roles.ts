/**
 * Credentials named by the role each value plays, after the value: "with 'guest' as both the username and the
 * password", "using 'ada' as the user name and 'x1' as the password", "with 'x' for both username and password".
 * Rewritten into the field-then-value shape the sign-in reader takes ("with username 'guest' and password 'guest'"),
 * so the values are still read as written or as configured test values, never guessed.
 */
import { maskQuotes } from './words.js';

const VALUE = String.raw`("[^"]*"|'[^']*'|[^\s"']+)`;
const FIELD = String.raw`(?:the\s+)?(e-?mail(?:\s+address)?|user\s*name|user|login|password|passcode|pin)`;
/** "with V as both the F1 and the F2": one value in two fields. */
const BOTH = new RegExp(String.raw`\b(with|using)\s+${VALUE}\s+(?:as|for)\s+both\s+${FIELD}\s+and\s+${FIELD}\b`, 'i');
/** "with V1 as the F1 and V2 as the F2": each value followed by its field. */
const EACH = new RegExp(String.raw`\b(with|using)\s+${VALUE}\s+(?:as|for)\s+${FIELD}\s+and\s+${VALUE}\s+(?:as|for)\s+${FIELD}\b`, 'i');

/** `rest` (what follows "log in") with role-named credentials put field first; unchanged when there are none. */
export function credentialsByRole(rest: string): string {
  const masked = maskQuotes(rest);
  const both = BOTH.exec(masked);
  if (both !== null) {
    const value = rest.slice(both.index, both.index + both[0].length).match(new RegExp(String.raw`^(?:with|using)\s+${VALUE}`, 'i'))![1]!;
    return splice(rest, both, `${both[1]} ${both[3]} ${value} and ${both[4]} ${value}`);
  }
  const each = EACH.exec(masked);
  if (each !== null) {
    const original = rest.slice(each.index, each.index + each[0].length);
    const values = new RegExp(String.raw`^(?:with|using)\s+${VALUE}\s+(?:as|for)\s+${FIELD}\s+and\s+${VALUE}`, 'i').exec(original)!;
    return splice(rest, each, `${each[1]} ${each[3]} ${values[1]} and ${each[5]} ${values[3]}`);
  }
  return rest;
}

function splice(text: string, match: RegExpExecArray, replacement: string): string {
  return text.slice(0, match.index) + replacement + text.slice(match.index + match[0].length);
}
