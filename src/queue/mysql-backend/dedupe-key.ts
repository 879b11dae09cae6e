import { createHash } from 'node:crypto';
import type { JobParameters } from 'agenda';

/**
 * The identity that makes `single` and `unique` jobs upserts. It is stored in `dedupe_key` under a unique index,
 * so two processes saving the same identity at once end with one row: the loser's insert fails on the index and
 * it updates the winner's row instead. (Agenda's Postgres backend looks the row up and then writes, which can
 * insert twice under a race.)
 *
 * - `single` jobs (`every()`): one row per job name.
 * - `unique` jobs: one row per job name and unique query. Values compare as text, as in the Postgres backend
 *   (`data->>'userId' = '123'` matches 123 and "123"), and key order does not matter.
 *
 * The match is on the identity a job was saved with, not on whatever rows happen to hold matching data.
 */
export function dedupeKeyOf(job: JobParameters): string | null {
  if (job.type === 'single') return sha256(`single\u0000${job.name}`);
  if (!job.unique || Object.keys(job.unique).length === 0) return null;
  const entries = Object.entries(job.unique)
    .map(([field, value]) => [field, canonical(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(`unique\u0000${job.name}\u0000${JSON.stringify(entries)}`);
}

function canonical(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') return JSON.stringify(sortKeys(value));
  return String(value);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
