import type { ClaimSpec } from './claim.js';
import type { JobRow } from './job-row.js';

/** One SQL statement with `?` placeholders (the same syntax on mysql2 and better-sqlite3). */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** What a transaction's decision step returns: the writes to apply and the value to resolve with. */
export interface Decision<T> {
  writes: Statement[];
  result: T;
}

export type Dialect = 'mysql' | 'sqlite';

/**
 * The little the repository needs from a database. Two implementations: MySQL/MariaDB through the mysql2 pool
 * behind a TypeORM DataSource, and SQLite through its better-sqlite3 handle.
 */
export interface SqlExecutor {
  readonly dialect: Dialect;
  /** Rows of a read, with dates as `YYYY-MM-DD HH:MM:SS.mmm` text and JSON as text. */
  select<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs a write and resolves with the number of rows it matched. */
  execute(sql: string, params?: unknown[]): Promise<number>;
  /**
   * One short transaction: runs `reads` (each locks what it finds, see `lockClause`), hands their rows to
   * `decide`, applies the writes it returns and commits. A write that hits a unique index rejects with
   * `DuplicateKeyError` after the transaction is rolled back, so the caller can read again and retry.
   */
  atomically<T>(reads: Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T>;
  /** The suffix that row-locks a read inside `atomically`: `FOR UPDATE [SKIP LOCKED]` on MySQL, nothing on SQLite. */
  lockClause(mode: 'wait' | 'skip-locked'): string;
  /**
   * Claims one job as `ClaimSpec` says, in one short transaction; resolves with its row after the lock, and whether
   * the job was taken from an expired lock (its worker presumed dead) rather than claimed as due.
   */
  claim(spec: ClaimSpec): Promise<ClaimedRow | undefined>;
  /** Releases what the executor itself opened (not the DataSource). */
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(cause: unknown) {
    super('duplicate key', { cause });
    this.name = 'DuplicateKeyError';
  }
}

/** Builds `IN (?, ?, …)` for a non-empty list. */
export function placeholders(count: number): string {
  return `(${new Array(count).fill('?').join(', ')})`;
}

export function insertStatement(table: string, row: Record<string, unknown>): Statement {
  const columns = Object.keys(row);
  return {
    sql: `INSERT INTO \`${table}\` (${columns.join(', ')}) VALUES ${placeholders(columns.length)}`,
    params: columns.map((column) => row[column]),
  };
}

/** A value in `updateStatement` that is an SQL expression rather than a bound parameter. */
export class SqlExpression implements Statement {
  constructor(
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}
}

export function updateStatement(table: string, values: Record<string, unknown>, where: Statement): Statement {
  const assignments: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (value instanceof SqlExpression) {
      assignments.push(`${column} = ${value.sql}`);
      params.push(...value.params);
    } else {
      assignments.push(`${column} = ?`);
      params.push(value);
    }
  }
  return { sql: `UPDATE \`${table}\` SET ${assignments.join(', ')} WHERE ${where.sql}`, params: [...params, ...where.params] };
}

/** A claimed job's row, and whether it was taken over from an expired lock. */
export interface ClaimedRow {
  row: JobRow;
  takeover: boolean;
}
