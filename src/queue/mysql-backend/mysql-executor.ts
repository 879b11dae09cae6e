import type { Pool, PoolConnection } from 'mysql2/promise';
import { candidateReads, orderBy, type ClaimSpec } from './claim.js';
import { SELECT_COLUMNS, type JobRow } from './job-row.js';
import { DuplicateKeyError, type Decision, type SqlExecutor, type Statement } from './sql-executor.js';

const ER_DUP_ENTRY = 1062;
const ER_LOCK_DEADLOCK = 1213;
const MAX_DEADLOCK_RETRIES = 3;

interface FieldLike {
  type: string;
  extendedFormat?: string;
  string(encoding?: string): string | null;
}

/**
 * Dates as text (one parser for both dialects, independent of the pool's time zone) and JSON as text: mysql2
 * would parse MySQL 8's JSON type and MariaDB's JSON (announced in extended metadata), and a parsed JSON string
 * cannot be told apart from unparsed text.
 */
export const readOptions = {
  dateStrings: true,
  typeCast: (field: FieldLike, next: () => unknown) =>
    field.type === 'JSON' || field.extendedFormat === 'json' ? field.string('utf8') : next(),
} as const;

/**
 * MySQL 8 / MariaDB 10.6+. Transactions run in READ COMMITTED so that `FOR UPDATE SKIP LOCKED` reads take no gap
 * locks: a claim never blocks an insert of new jobs, and two claimers skip each other's rows instead of waiting.
 *
 * `pool` is the DataSource's. The claim pool is the backend's own, with multi-statements enabled (and nowhere
 * else): a claim is its hottest path, run two or three times per job by Agenda, and as one batch it costs one
 * round trip instead of six. It opens on the first claim (a process that only enqueues never opens it) and
 * closes with `close()`, i.e. `backend.disconnect()`.
 */
export class MySqlExecutor implements SqlExecutor {
  readonly dialect = 'mysql' as const;
  private readonly claimStatements = new Map<string, string>();
  private claimPool: Pool | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly openClaimPool: () => Pool,
  ) {}

  async select<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    const [rows] = await this.pool.query({ sql, values: params, ...readOptions });
    return rows as R[];
  }

  async execute(sql: string, params: unknown[] = []): Promise<number> {
    const [result] = await this.pool.query(sql, params);
    return (result as { affectedRows: number }).affectedRows;
  }

  lockClause(mode: 'wait' | 'skip-locked'): string {
    return mode === 'skip-locked' ? ' FOR UPDATE SKIP LOCKED' : ' FOR UPDATE';
  }

  /**
   * The claim as one batch: both candidate reads into session variables, the choice in SQL (same rule as
   * `earlier` in claim.ts), the lock, the commit, and the locked row. A statement that fails stops the batch
   * with the transaction open, so the connection is rolled back before it goes back to the pool.
   */
  async claim(spec: ClaimSpec): Promise<JobRow | undefined> {
    const params = [spec.jobName, spec.nextScanAt, spec.jobName, spec.lockDeadline, spec.lockedAt, spec.lastModifiedBy];
    for (let attempt = 1; ; attempt++) {
      this.claimPool ??= this.openClaimPool();
      const connection = await this.claimPool.getConnection();
      try {
        const [results] = await connection.query({ sql: this.claimBatch(spec), values: params, ...readOptions });
        connection.release();
        const sets = results as unknown[];
        return (sets[sets.length - 1] as JobRow[])[0];
      } catch (error) {
        try {
          await connection.query('ROLLBACK');
          connection.release();
        } catch {
          connection.destroy();
        }
        if (errno(error) === ER_LOCK_DEADLOCK && attempt < MAX_DEADLOCK_RETRIES) continue;
        throw error;
      }
    }
  }

  private claimBatch(spec: ClaimSpec): string {
    const cacheKey = `${spec.table}|${orderBy(spec.order)}`;
    let sql = this.claimStatements.get(cacheKey);
    if (sql) return sql;
    const { due, expired } = candidateReads(spec, ' FOR UPDATE SKIP LOCKED');
    const into = (prefix: string) => ` INTO @${prefix}_id, @${prefix}_at, @${prefix}_pri FROM`;
    const later = spec.order.nextRunAt === 'desc' ? '>' : '<';
    const higher = spec.order.priority === 'asc' ? '<' : '>';
    sql = [
      'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
      'SET @due_id = NULL, @due_at = NULL, @due_pri = NULL, @exp_id = NULL, @exp_at = NULL, @exp_pri = NULL',
      'START TRANSACTION',
      due.replace(' FROM', into('due')),
      expired.replace(' FROM', into('exp')),
      `SET @claimed = CASE
         WHEN @due_id IS NULL THEN @exp_id
         WHEN @exp_id IS NULL THEN @due_id
         WHEN @exp_at IS NULL THEN @exp_id
         WHEN @exp_at ${later} @due_at THEN @exp_id
         WHEN @exp_at = @due_at AND @exp_pri ${higher} @due_pri THEN @exp_id
         ELSE @due_id END`,
      `UPDATE \`${spec.table}\` SET locked_at = ?, last_modified_by = ? WHERE id = @claimed`,
      'COMMIT',
      `SELECT ${SELECT_COLUMNS} FROM \`${spec.table}\` WHERE id = @claimed`,
    ].join(';\n');
    this.claimStatements.set(cacheKey, sql);
    return sql;
  }

  async atomically<T>(reads: Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(reads, decide);
      } catch (error) {
        if (errno(error) === ER_LOCK_DEADLOCK && attempt < MAX_DEADLOCK_RETRIES) continue;
        if (errno(error) === ER_DUP_ENTRY) throw new DuplicateKeyError(error);
        throw error;
      }
    }
  }

  async close(): Promise<void> {
    const claimPool = this.claimPool;
    this.claimPool = undefined;
    await claimPool?.end();
  }

  private async once<T>(reads: Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T> {
    const connection: PoolConnection = await this.pool.getConnection();
    try {
      await connection.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
      await connection.query('START TRANSACTION');
      try {
        const rows: unknown[][] = [];
        for (const read of reads) {
          const [found] = await connection.query({ sql: read.sql, values: read.params, ...readOptions });
          rows.push(found as unknown[]);
        }
        const decision = decide(rows);
        for (const write of decision.writes) await connection.query(write.sql, write.params);
        await connection.query('COMMIT');
        return decision.result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      connection.release();
    }
  }
}

function errno(error: unknown): number | undefined {
  return (error as { errno?: number } | null)?.errno;
}
