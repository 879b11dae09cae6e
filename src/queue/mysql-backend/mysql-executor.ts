import type { Pool, PoolConnection } from 'mysql2/promise';
import { CLAIMABLE, candidateReads, orderBy, type ClaimSpec } from './claim.js';
import { SELECT_COLUMNS, type JobRow } from './job-row.js';
import { DuplicateKeyError, type ClaimedRow, type Decision, type SqlExecutor, type Statement } from './sql-executor.js';

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
 * round trip instead of one a statement. It opens on the first claim (a process that only enqueues never opens
 * it) and closes with `close()`, i.e. `backend.disconnect()`.
 */
export class MySqlExecutor implements SqlExecutor {
  readonly dialect = 'mysql' as const;
  private readonly claimBatches = new Map<string, string>();
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
   * The claim as one batch (`claimStatements`), one round trip. A statement that fails stops the batch with the
   * transaction open, so the connection is rolled back before it goes back to the pool.
   */
  async claim(spec: ClaimSpec): Promise<ClaimedRow | undefined> {
    const statements = claimStatements(spec);
    const params = statements.flatMap((statement) => statement.params);
    for (let attempt = 1; ; attempt++) {
      this.claimPool ??= this.openClaimPool();
      const connection = await this.claimPool.getConnection();
      try {
        const [results] = await connection.query({ sql: this.claimBatch(spec, statements), values: params, ...readOptions });
        connection.release();
        const sets = results as unknown[];
        const claimed = (sets[sets.length - 1] as (JobRow & { taken_over: number | string })[])[0];
        if (!claimed) return undefined;
        const { taken_over: takenOver, ...row } = claimed;
        return { row, takeover: Number(takenOver) === 1 };
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

  private claimBatch(spec: ClaimSpec, statements: Statement[]): string {
    const cacheKey = `${spec.table}|${orderBy(spec.order)}`;
    let sql = this.claimBatches.get(cacheKey);
    if (!sql) this.claimBatches.set(cacheKey, (sql = statements.map((statement) => statement.sql).join(';\n')));
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

/**
 * A claim's statements on MySQL, in order: both candidates into session variables, the choice in SQL (the rule of
 * `earlier` in claim.ts), the lock, the commit, and the locked row.
 *
 * Each candidate is first read without a lock, and locked only when there is one. A locking range scan that finds
 * nothing, or that sorts as the expired read must, reads on to the first row past its range, often the next kind's
 * first job, and keeps that row locked until its transaction ends: a claim of that kind at the same moment (Agenda
 * claims every kind at once) skipped the job as locked and found nothing until the next poll (29 claims in 3000
 * scans of six kinds at once, on a loaded machine). So the due read locks only when it saw a due job (otherwise its
 * WHERE is constant false and MariaDB reads no row), and the expired read locks the row it saw by its key, checking
 * again that the lock is still expired; a row another claimer holds is skipped.
 */
export function claimStatements(spec: ClaimSpec): Statement[] {
  const seen = candidateReads(spec, '');
  const { due } = candidateReads(spec, ' FOR UPDATE SKIP LOCKED');
  const into = (prefix: string) => ` INTO @${prefix}_id, @${prefix}_at, @${prefix}_pri FROM`;
  const variables = ['due_seen', 'due', 'exp_seen', 'exp'].flatMap((prefix) => ['id', 'at', 'pri'].map((part) => `@${prefix}_${part} = NULL`));
  const later = spec.order.nextRunAt === 'desc' ? '>' : '<';
  const higher = spec.order.priority === 'asc' ? '<' : '>';
  const dueParams = [spec.jobName, spec.nextScanAt];
  const expiredParams = [spec.jobName, spec.lockDeadline];
  const plain = (sql: string): Statement => ({ sql, params: [] });
  return [
    plain('SET TRANSACTION ISOLATION LEVEL READ COMMITTED'),
    plain(`SET ${variables.join(', ')}`),
    plain('START TRANSACTION'),
    { sql: seen.due.replace(' FROM', into('due_seen')), params: dueParams },
    { sql: due.replace(' FROM', into('due')).replace(' WHERE ', ' WHERE @due_seen_id IS NOT NULL AND '), params: dueParams },
    { sql: seen.expired.replace(' FROM', into('exp_seen')), params: expiredParams },
    {
      sql: `SELECT id, next_run_at, priority${into('exp')} \`${spec.table}\` WHERE id = @exp_seen_id AND ${CLAIMABLE.kind} AND ${CLAIMABLE.expired} FOR UPDATE SKIP LOCKED`,
      params: expiredParams,
    },
    plain(`SET @claimed = CASE
       WHEN @due_id IS NULL THEN @exp_id
       WHEN @exp_id IS NULL THEN @due_id
       WHEN @exp_at IS NULL THEN @exp_id
       WHEN @exp_at ${later} @due_at THEN @exp_id
       WHEN @exp_at = @due_at AND @exp_pri ${higher} @due_pri THEN @exp_id
       ELSE @due_id END`),
    { sql: `UPDATE \`${spec.table}\` SET locked_at = ?, last_modified_by = ? WHERE id = @claimed`, params: [spec.lockedAt, spec.lastModifiedBy] },
    plain('COMMIT'),
    plain(`SELECT ${SELECT_COLUMNS}, (@claimed <=> @exp_id) AS taken_over FROM \`${spec.table}\` WHERE id = @claimed`),
  ];
}
