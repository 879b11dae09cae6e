/**
 * Text that is valid Unicode. JSON may carry a lone UTF-16 surrogate as an escape (`"\ud83d"`): JavaScript takes it,
 * but MariaDB's JSON columns (and any UTF-8 encoder) refuse it. A chat payload is stored after its ack, so such a
 * character would lose the whole delivery; it becomes U+FFFD instead, as `String.prototype.toWellFormed` does.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** A JSON value with every string in it (keys included) well formed; values already well formed are kept as they are. */
export function wellFormedJson<T>(value: T): T {
  if (typeof value === 'string') return wellFormedText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => wellFormedJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormedText(key), wellFormedJson(item as unknown)])) as T;
  }
  return value;
}
