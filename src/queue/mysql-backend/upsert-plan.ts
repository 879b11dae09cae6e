import type { JobParameters } from 'agenda';
import { definitionValues, type JobRow } from './job-row.js';
import { fromSqlDate, toSqlDate } from './sql-dates.js';

/** What saving a `single` or `unique` job does to the row that holds its identity (if any). */
export type UpsertPlan =
  | { kind: 'insert'; values: Record<string, unknown> }
  | { kind: 'update'; values: Record<string, unknown> }
  | { kind: 'keep' };

/**
 * `single` jobs (`every()`): the definition is refreshed, but a due run already scheduled is kept when the new
 * save asks to run now or earlier, so a restart does not re-run or skip a repeating job.
 */
export function planSingle(job: JobParameters, existing: JobRow | undefined, now: Date, by?: string): UpsertPlan {
  const values = definitionValues(job, by);
  if (!existing) return { kind: 'insert', values };
  const { name: _name, type: _type, ...update } = values;
  const protectNextRunAt = job.nextRunAt !== null && job.nextRunAt <= now;
  if (protectNextRunAt && existing.next_run_at !== null) update.next_run_at = existing.next_run_at;
  return { kind: 'update', values: update };
}

/**
 * `unique` jobs, with the `insertOnly` and `debounce` options, with the same outcomes as Agenda's Postgres
 * backend: trailing debounce pushes the run `delay` past the latest save until `maxWait` since the first save
 * forces it; leading debounce keeps the first run time and only refreshes the data.
 */
export function planUnique(job: JobParameters, existing: JobRow | undefined, now: Date, by?: string): UpsertPlan {
  const values = definitionValues(job, by);
  const debounce = job.uniqueOpts?.debounce;
  if (!existing) {
    if (!debounce) return { kind: 'insert', values };
    const nextRunAt = debounce.strategy === 'leading' ? job.nextRunAt : new Date(now.getTime() + debounce.delay);
    return {
      kind: 'insert',
      values: { ...values, next_run_at: toSqlDate(nextRunAt), debounce_started_at: toSqlDate(now) },
    };
  }
  if (job.uniqueOpts?.insertOnly && !debounce) return { kind: 'keep' };
  const { name: _name, ...update } = values;
  let nextRunAt: string | null = toSqlDate(job.nextRunAt);
  let debounceStartedAt: string | null = null;
  if (debounce) {
    const startedAt = fromSqlDate(existing.debounce_started_at) ?? now;
    if (debounce.strategy === 'leading') {
      nextRunAt = existing.next_run_at;
      debounceStartedAt = toSqlDate(startedAt);
    } else if (debounce.maxWait && now.getTime() - startedAt.getTime() >= debounce.maxWait) {
      nextRunAt = toSqlDate(now);
    } else {
      nextRunAt = toSqlDate(new Date(now.getTime() + debounce.delay));
      debounceStartedAt = toSqlDate(startedAt);
    }
  }
  return { kind: 'update', values: { ...update, next_run_at: nextRunAt, debounce_started_at: debounceStartedAt } };
}
