/**
 * Dates cross the wire as `YYYY-MM-DD HH:MM:SS.mmm` in UTC on both dialects: MySQL stores them in DATETIME(3)
 * (no time zone, so the session time zone never shifts them) and SQLite stores the same text, which sorts and
 * compares correctly as a string. Reads ask mysql2 for strings (`dateStrings`) so one parser serves both.
 */
export function toSqlDate(value: Date | string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`Invalid date: ${String(value)}`);
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

export function fromSqlDate(value: unknown): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value;
  if (typeof value !== 'string') throw new TypeError(`Unexpected ${typeof value} for a date column`);
  return new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
}
