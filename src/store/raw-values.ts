/**
 * Column values as raw queries return them on either dialect, for the few hot paths that skip TypeORM's query
 * builder (authentication, the job-creation look-up): mysql2 gives Date objects (the pool reads UTC) and, on
 * MariaDB, JSON as text; better-sqlite3 gives the UTC text TypeORM wrote and JSON as text.
 */
export function readDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value !== 'string') throw new TypeError(`Unexpected ${typeof value} in a date column`);
  return new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
}

export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
