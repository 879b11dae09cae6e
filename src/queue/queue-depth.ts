import type { DataSource } from 'typeorm';
import { DEFAULT_TABLE_NAME } from './mysql-backend/index.js';
import { fromSqlDate, toSqlDate } from './mysql-backend/sql-dates.js';

/** What waits in the queue for one kind of job: due, unlocked and enabled jobs, and how long the oldest has been due. */
export interface QueueDepth {
  kind: string;
  due: number;
  oldestDueSeconds: number;
}

/**
 * The queue's backlog by kind, as of `now`: one grouped read over the claim index (`name, disabled, locked_at,
 * next_run_at`), for a scrape. Kinds with nothing due are absent.
 */
export async function readQueueDepth(dataSource: DataSource, now: Date = new Date()): Promise<QueueDepth[]> {
  const rows = (await dataSource.query(
    `SELECT name, COUNT(*) AS due, MIN(next_run_at) AS oldest FROM ${DEFAULT_TABLE_NAME}
      WHERE disabled = 0 AND locked_at IS NULL AND next_run_at <= ? GROUP BY name`,
    [toSqlDate(now)],
  )) as { name: string; due: number | string; oldest: unknown }[];
  return rows.map((row) => ({
    kind: row.name,
    due: Number(row.due),
    oldestDueSeconds: Math.max(0, (now.getTime() - (fromSqlDate(row.oldest)?.getTime() ?? now.getTime())) / 1000),
  }));
}
