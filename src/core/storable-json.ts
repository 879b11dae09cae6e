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
  // Nearly every payload needs no change: looked over without copying and kept as it is (bench:webhooks: the copy of a
  // 20 kB pull_request payload was a tenth of the receiver's CPU per delivery, with its garbage).
  return needsRepair(value, 1, maxDepth) ? (storable(value, 1, maxDepth) as T) : value;
}

/** `LONE_SURROGATE` without the global flag, whose `lastIndex` would carry over between `test` calls. */
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

function needsRepair(value: unknown, depth: number, maxDepth: number): boolean {
  if (typeof value === 'string') return HAS_LONE_SURROGATE.test(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth > maxDepth) return true;
  if (Array.isArray(value)) return value.some((item: unknown) => needsRepair(item, depth + 1, maxDepth));
  for (const key of Object.keys(value)) {
    if (HAS_LONE_SURROGATE.test(key) || needsRepair((value as Record<string, unknown>)[key], depth + 1, maxDepth)) return true;
  }
  return false;
}

function storable(value: unknown, depth: number, maxDepth: number): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > maxDepth) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item: unknown) => storable(item, depth + 1, maxDepth));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormedText(key), storable(item as unknown, depth + 1, maxDepth)]));
}
