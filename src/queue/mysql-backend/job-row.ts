import { toJobId, type JobParameters } from 'agenda';
import { fromSqlDate, toSqlDate } from './sql-dates.js';

/** A row of the jobs table as either driver returns it (dates as text, booleans as 0/1, JSON as text). */
export interface JobRow {
  id: string;
  name: string;
  priority: number;
  next_run_at: string | null;
  type: 'normal' | 'single';
  locked_at: string | null;
  last_finished_at: string | null;
  failed_at: string | null;
  fail_count: number | null;
  fail_reason: string | null;
  repeat_timezone: string | null;
  last_run_at: string | null;
  repeat_interval: string | null;
  data: string | null;
  repeat_at: string | null;
  disabled: number | boolean;
  progress: number | null;
  fork: number | boolean;
  last_modified_by: string | null;
  debounce_started_at: string | null;
  start_date: string | null;
  end_date: string | null;
  skip_days: string | null;
  dedupe_key: string | null;
}

export const JOB_COLUMNS = [
  'id', 'name', 'priority', 'next_run_at', 'type', 'locked_at', 'last_finished_at', 'failed_at', 'fail_count',
  'fail_reason', 'repeat_timezone', 'last_run_at', 'repeat_interval', 'data', 'repeat_at', 'disabled', 'progress',
  'fork', 'last_modified_by', 'debounce_started_at', 'start_date', 'end_date', 'skip_days', 'dedupe_key',
] as const satisfies readonly (keyof JobRow)[];

export type JobColumn = (typeof JOB_COLUMNS)[number];
export const SELECT_COLUMNS = JOB_COLUMNS.join(', ');

/** Converts a row to Agenda's shape, field for field as Agenda's Postgres backend does (absent = undefined). */
export function rowToJob(row: JobRow): JobParameters {
  return {
    _id: toJobId(String(row.id)),
    name: row.name,
    priority: Number(row.priority),
    nextRunAt: fromSqlDate(row.next_run_at) ?? null,
    type: row.type,
    lockedAt: fromSqlDate(row.locked_at),
    lastFinishedAt: fromSqlDate(row.last_finished_at),
    failedAt: fromSqlDate(row.failed_at),
    failCount: row.fail_count ?? undefined,
    failReason: row.fail_reason ?? undefined,
    repeatTimezone: row.repeat_timezone ?? undefined,
    lastRunAt: fromSqlDate(row.last_run_at),
    repeatInterval: row.repeat_interval ?? undefined,
    data: parseJson(row.data),
    repeatAt: row.repeat_at ?? undefined,
    disabled: Boolean(row.disabled),
    progress: row.progress ?? undefined,
    fork: Boolean(row.fork),
    lastModifiedBy: row.last_modified_by ?? undefined,
    debounceStartedAt: fromSqlDate(row.debounce_started_at),
    startDate: fromSqlDate(row.start_date),
    endDate: fromSqlDate(row.end_date),
    skipDays: (parseJson(row.skip_days) as number[] | null) ?? undefined,
  };
}

function parseJson(text: string | null): unknown {
  return text === null || text === undefined ? null : JSON.parse(text);
}

export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** The columns a save writes from a job's definition (the ones Agenda's Postgres backend writes on insert). */
export function definitionValues(
  job: JobParameters,
  lastModifiedBy: string | undefined,
): Record<Exclude<JobColumn, 'id' | 'dedupe_key' | 'locked_at' | 'last_finished_at' | 'failed_at' | 'fail_count' |
  'fail_reason' | 'last_run_at' | 'progress' | 'debounce_started_at'>, unknown> {
  return {
    name: job.name,
    priority: job.priority,
    next_run_at: toSqlDate(job.nextRunAt),
    type: job.type,
    repeat_timezone: job.repeatTimezone || null,
    repeat_interval: job.repeatInterval ? String(job.repeatInterval) : null,
    data: toJson(job.data),
    repeat_at: job.repeatAt || null,
    disabled: job.disabled ? 1 : 0,
    fork: job.fork ? 1 : 0,
    last_modified_by: lastModifiedBy || null,
    start_date: toSqlDate(job.startDate),
    end_date: toSqlDate(job.endDate),
    skip_days: job.skipDays ? JSON.stringify(job.skipDays) : null,
  };
}

/** A full row for a job about to be inserted, so the insert needs no read-back. */
export function newRow(id: string, values: Record<string, unknown>): JobRow {
  const row = Object.fromEntries(JOB_COLUMNS.map((column) => [column, null])) as Record<string, unknown>;
  Object.assign(row, values, { id });
  return row as unknown as JobRow;
}
