import type { Pool, PoolConnection } from 'mysql2/promise';
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
const readOptions = {
  dateStrings: true,
  typeCast: (field: FieldLike, next: () => unknown) =>
    field.type === 'JSON' || field.extendedFormat === 'json' ? field.string('utf8') : next(),
} as const;

/**
 * MySQL 8 / MariaDB 10.6+. Claims run in READ COMMITTED so that `FOR UPDATE SKIP LOCKED` reads take no gap
 * locks: a claim never blocks an insert of new jobs, and two claimers skip each other's rows instead of waiting.
 */
export class MySqlExecutor implements SqlExecutor {
  readonly dialect = 'mysql' as const;

  constructor(private readonly pool: Pool) {}

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

  unionAll(selects: string[]): string {
    return selects.map((select) => `(${select})`).join(' UNION ALL ');
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
