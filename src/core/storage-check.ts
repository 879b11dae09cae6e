/**
 * Whether what a page keeps in the browser's local storage holds what an `expectStorage` step names (pure: the
 * runner reads the storage, and the generated source repeats this in its `storageMatch` helper, kept in step).
 *
 * - `texts`: each is a stored value: a string equal to it inside a stored JSON value, or, for a value that is not JSON,
 *   contained in it (case and white space as written: storage is what the app wrote, not what a person reads).
 * - `count`: the list stored under `key` (or, without a key, the one stored list) has that many entries; with
 *   `where`, that many of its entries have that property set (`completed`).
 */
export interface StorageExpectation {
  key?: string;
  texts: readonly string[];
  count?: number;
  where?: string;
}

export interface StorageVerdict {
  held: boolean;
  /** What was expected, and what the storage holds instead (bounded), for the finding. */
  expected: string;
  actual: string[];
}

export function storageMatch(entries: Readonly<Record<string, string | null>>, expected: StorageExpectation): StorageVerdict {
  const keys = expected.key === undefined ? Object.keys(entries).sort() : [expected.key];
  const parsed = keys.map((key) => ({ key, raw: entries[key] ?? null, value: parse(entries[key] ?? null) }));
  const strings = parsed.flatMap((entry) => (entry.value === undefined ? [] : leaves(entry.value)));
  const missing = expected.texts.filter((text) => !strings.includes(text) && !parsed.some((entry) => entry.value === undefined && entry.raw !== null && entry.raw.includes(text)));
  const lists = parsed.filter((entry) => Array.isArray(entry.value));
  const list = lists.length === 1 ? (lists[0]!.value as unknown[]) : undefined;
  const counted = list === undefined ? undefined : expected.where === undefined ? list.length : list.filter((item) => isRecord(item) && Boolean(item[expected.where!])).length;
  const countHeld = expected.count === undefined || counted === expected.count;
  const what = [
    ...expected.texts.map((text) => JSON.stringify(text)),
    ...(expected.count === undefined ? [] : [`${expected.count} ${expected.where === undefined ? 'entries' : `entries with ${expected.where}`}`]),
  ].join(', ');
  const actual = [
    ...(expected.count === undefined ? [] : [list === undefined ? `${lists.length} lists stored` : `${counted} ${expected.where === undefined ? 'entries' : `entries with ${expected.where}`}`]),
    ...keys.map((key) => `${key}: ${entries[key] === undefined || entries[key] === null ? '(nothing)' : shorten(entries[key]!)}`),
  ].slice(0, 5);
  return { held: missing.length === 0 && countHeld, expected: `local storage${expected.key === undefined ? '' : ` "${expected.key}"`} holds ${what || 'something'}`, actual };
}

function parse(raw: string | null): unknown {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (isRecord(value)) return Object.values(value).flatMap(leaves);
  return [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}
