/**
 * Secret values (test values read from the environment at run time) must never be stored or shown: not in events,
 * findings, logs, artifacts, generated source or anything sent to a planner. A scrubber replaces every occurrence
 * in text before it is written anywhere.
 */
export const SECRET_MASK = '[secret]';

export interface Scrubber {
  /** `text` with every secret value replaced by SECRET_MASK. */
  text(text: string): string;
  /** A JSON-able value with every string scrubbed (object keys too). */
  value<T>(value: T): T;
  /** Whether `text` holds any secret value. */
  holds(text: string): boolean;
}

/**
 * Longest first, so a secret that contains another is masked whole. Empty values are ignored (they would match
 * everywhere); so are values of one or two characters, which cannot be told apart from ordinary text — a test
 * value that short is not a secret worth the name.
 */
export function createScrubber(secrets: Iterable<string>): Scrubber {
  const values = [...new Set([...secrets].filter((secret) => secret.length >= 3))].sort((a, b) => b.length - a.length);
  const text = (input: string): string => values.reduce((out, secret) => out.split(secret).join(SECRET_MASK), input);
  const value = <T>(input: T): T => {
    if (typeof input === 'string') return text(input) as T;
    if (Array.isArray(input)) return input.map((item: unknown) => value(item)) as T;
    if (input !== null && typeof input === 'object' && !(input instanceof Date)) {
      return Object.fromEntries(Object.entries(input).map(([key, item]) => [text(key), value(item as unknown)])) as T;
    }
    return input;
  };
  return { text, value, holds: (input) => values.some((secret) => input.includes(secret)) };
}
