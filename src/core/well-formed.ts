/**
 * A parsed JSON value with every lone UTF-16 surrogate replaced by U+FFFD, in keys and strings. `JSON.parse` accepts
 * `"\ud800"`, but MySQL's JSON type and utf8mb4 refuse it, so a payload that carries one (sent by mistake or on
 * purpose) would fail the insert of its receipt. Well-formed text comes back as it was.
 */
export function wellFormedJson(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormedJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormed(key), wellFormedJson(item)]));
  }
  return value;
}

// String.prototype.toWellFormed is in Node 20, but only in TypeScript's ES2024 lib.
const wellFormed = (text: string): string => (text as string & { toWellFormed(): string }).toWellFormed();
