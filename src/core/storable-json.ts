/**
 * JSON that every store takes. A received payload is stored after its ack (a chat delivery), so a value the
 * database refuses would lose the whole delivery; instead the parts no store takes are replaced, and the rest kept.
 */

/**
 * JSON may carry a lone UTF-16 surrogate as an escape (`"\ud83d"`): JavaScript takes it, but MariaDB's JSON columns
 * (and any UTF-8 encoder) refuse it. It becomes U+FFFD, as `String.prototype.toWellFormed` does.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** MariaDB's JSON_VALID (the CHECK on its JSON columns) refuses 32 or more levels of nested arrays and objects. */
export const MAX_STORED_JSON_DEPTH = 31;

/** What stands in for an array or object nested deeper than a store takes. */
export const TOO_DEEP = '[nested too deep to store]';

export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A JSON value every store takes: each string (keys included) well formed, and each array or object nested deeper
 * than `maxDepth` (the top level is depth 1) replaced by `TOO_DEEP`. Other values are kept as they are.
 */
export function storableJson<T>(value: T, maxDepth: number = MAX_STORED_JSON_DEPTH): T {
  return storable(value, 1, maxDepth) as T;
}

function storable(value: unknown, depth: number, maxDepth: number): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > maxDepth) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item: unknown) => storable(item, depth + 1, maxDepth));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormedText(key), storable(item as unknown, depth + 1, maxDepth)]));
}
