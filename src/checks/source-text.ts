/**
 * Putting user-provided text (names, descriptions, step texts, URLs, environment variable names) into generated
 * TypeScript source safely: as string literals that cannot end early, as comments that cannot end early, and as
 * variable names that are only ever names.
 */
import { ErrorCode, userError } from '../core/errors.js';

/**
 * Characters that are invisible or that reorder how a line is displayed (bidi controls, zero-width characters,
 * line and paragraph separators): "Trojan Source" (CVE-2021-42574) uses them to make a line read as something it
 * is not. Literals escape them; comments drop them.
 */
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A double-quoted string literal with the value `text`. JSON escapes quotes, backslashes and control characters;
 * backticks and `${` mean nothing inside double quotes; invisible characters are escaped so the literal reads as
 * what it is.
 */
export function literal(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, unicodeEscape);
}

/**
 * Text for a `//` comment on one line: line breaks and other control characters become spaces, invisible characters
 * are dropped, and `*\/` is broken up so the text cannot close a block comment either (should it ever land in one).
 */
export function commentText(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\*\//g, '* /')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Environment variable names as POSIX shells and `process.env` accept them (the repository's secret refs). */
export const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/i;

/** `name` if it is an environment variable name, else a user error naming where it came from (never its value). */
export function checkedEnvName(name: string, where: string): string {
  if (!ENV_NAME.test(name)) {
    throw userError(ErrorCode.CheckEnvNameInvalid, `${where} names the environment variable ${literal(name)}, which is not a variable name (letters, digits and _, not starting with a digit)`, {
      details: { field: where },
    });
  }
  return name;
}
