import type { Database, Statement as Prepared } from 'better-sqlite3';
import { jsonContainsText } from './json-contains.js';
import { candidateReads, earlier, type ClaimCandidate, type ClaimSpec } from './claim.js';
import { SELECT_COLUMNS, type JobRow } from './job-row.js';
import { DuplicateKeyError, updateStatement, type ClaimedRow, type Decision, type SqlExecutor, type Statement } from './sql-executor.js';

const FOREIGN_TRANSACTION_WAIT_MS = 10_000;

/**
 * SQLite, the embedded single-process default. better-sqlite3 is synchronous, so a transaction that runs its
 * reads and writes without awaiting is atomic within the process, and `BEGIN IMMEDIATE` takes the write lock up
 * front, so it stays atomic against another process on the same file as well (compare-and-set by construction).
 *
 * The handle is shared with TypeORM, which runs its own transactions on it without serialising them. A write of
 * ours issued while such a transaction is open would join it and vanish if it rolled back, so writes wait until
 * the connection is outside a transaction. Consequence: do not call Agenda from inside a TypeORM transaction on
 * SQLite (the write would wait for a transaction that waits for it, and fail after 10 s with a clear error).
 */
export class SqliteExecutor implements SqlExecutor {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Prepared>();

  constructor(private readonly db: Database) {
    db.function('json_contains', { deterministic: true }, jsonContainsText);
  }

  async select<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.prepare(sql).all(...bind(params)) as R[];
  }

  async execute(sql: string, params: unknown[] = []): Promise<number> {
    await this.outsideForeignTransaction();
    return this.run({ sql, params });
  }

  lockClause(): string {
    return '';
  }

  /** Both candidate reads, the choice and the lock in one synchronous BEGIN IMMEDIATE transaction. */
  async claim(spec: ClaimSpec): Promise<ClaimedRow | undefined> {
    const { due, expired } = candidateReads(spec, '');
    const claimed = await this.atomically<{ id: string; takeover: boolean } | undefined>(
      [
        { sql: due, params: [spec.jobName, spec.nextScanAt] },
        { sql: expired, params: [spec.jobName, spec.lockDeadline] },
      ],
      ([dueRows, expiredRows]) => {
        const chosen = earlier(spec.order, (dueRows as ClaimCandidate[])[0], (expiredRows as ClaimCandidate[])[0]);
        if (!chosen) return { writes: [], result: undefined };
        const lock = updateStatement(spec.table, { locked_at: spec.lockedAt, last_modified_by: spec.lastModifiedBy }, {
          sql: 'id = ?',
          params: [chosen.id],
        });
        return { writes: [lock], result: { id: chosen.id, takeover: chosen === (expiredRows as ClaimCandidate[])[0] } };
      },
    );
    if (claimed === undefined) return undefined;
    const [row] = await this.select<JobRow>(`SELECT ${SELECT_COLUMNS} FROM \`${spec.table}\` WHERE id = ?`, [claimed.id]);
    return row && { row, takeover: claimed.takeover };
  }

  async close(): Promise<void> {
    this.statements.clear();
  }

  async atomically<T>(reads: Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T> {
    await this.outsideForeignTransaction();
    const transaction = this.db.transaction(() => {
      const rows = reads.map((read) => this.prepare(read.sql).all(...bind(read.params)));
      const decision = decide(rows);
      for (const write of decision.writes) this.run(write);
      return decision.result;
    });
    return transaction.immediate();
  }

  private run(statement: Statement): number {
    try {
      return this.prepare(statement.sql).run(...bind(statement.params)).changes;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError(error);
      throw error;
    }
  }

  private prepare(sql: string): Prepared {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private async outsideForeignTransaction(): Promise<void> {
    if (!this.db.inTransaction) return;
    const deadline = Date.now() + FOREIGN_TRANSACTION_WAIT_MS;
    while (this.db.inTransaction) {
      if (Date.now() > deadline) {
        throw new Error(
          'SQLite job store: another transaction on the shared connection stayed open for 10 s; ' +
            'enqueue jobs after committing, not inside a TypeORM transaction',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; booleans and undefined are mapped. */
function bind(params: unknown[]): unknown[] {
  return params.map((value) => (value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value));
}
