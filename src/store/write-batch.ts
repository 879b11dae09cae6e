/**
 * A few inserts committed together in one round trip. Job creation writes four or five rows in one transaction
 * on every request; through the query builder that is seven round trips (START, each INSERT, COMMIT), and on these
 * machines a round trip (a socket write and a wake-up) costs more than building the statement. Measured with
 * `npm run bench:api`: see docs/benchmarks.md.
 *
 * MySQL/MariaDB: one `START TRANSACTION; INSERT …; …; COMMIT` batch on a small pool of its own with
 * multi-statements enabled (the service's main pool keeps them off, so a bug elsewhere cannot stack queries).
 * Every value is a bound parameter. SQLite: the same statements in one TypeORM transaction (no network).
 */
import { createPool, type Pool, type PoolConnection } from 'mysql2/promise';
import type { DataSource, DataSourceOptions, EntityTarget, ObjectLiteral } from 'typeorm';
import { inTurn } from './sqlite-turns.js';

type MysqlConnectionOptions = Extract<DataSourceOptions, { type: 'mysql' | 'mariadb' }>;

export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * A durable workflow's queue job, staged for the transaction that writes the rows it works on (a job, a repository
 * and its ingestion run): they exist together or not at all.
 */
export interface StagedWorkflow {
  /** The workflow's id: its queue job's id, known before anything is written. */
  workflowId: string;
  /** The queue job's INSERT, committed with the caller's rows. */
  statement: Statement;
  /** Wakes workers; called after the commit. */
  announce(): Promise<void>;
}

export interface WriteBatch {
  /** Runs the statements in one transaction: all commit or none does (the error is rethrown). */
  commit(statements: Statement[]): Promise<void>;
  /** Closes the batch's own connections (MySQL); the DataSource stays open. */
  close(): Promise<void>;
}

/** Connections of the batch pool: creation is short, so a few serve many concurrent requests. */
const POOL_SIZE = 8;

/**
 * `INSERT INTO <entity's table> (…) VALUES (…), …` for rows given by property name, each value converted as
 * TypeORM converts it for this driver (JSON as text, dates as the driver writes them). Columns left out take
 * their database defaults (created_at).
 */
export function insertRows<Entity extends ObjectLiteral>(dataSource: DataSource, entity: EntityTarget<Entity>, rows: Partial<Entity>[]): Statement {
  if (rows.length === 0) throw new Error('insertRows needs at least one row');
  const metadata = dataSource.getMetadata(entity);
  const columns = metadata.columns.filter((column) => column.propertyName in rows[0]!);
  const driver = dataSource.driver;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return {
    sql: `INSERT INTO ${driver.escape(metadata.tableName)} (${columns.map((column) => driver.escape(column.databaseName)).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
    params: rows.flatMap((row) => columns.map((column) => driver.preparePersistentValue(row[column.propertyName as keyof Entity], column) as unknown)),
  };
}

export function createWriteBatch(dataSource: DataSource): WriteBatch {
  const options = dataSource.options;
  if (options.type !== 'mysql' && options.type !== 'mariadb') {
    // SQLite has one connection: commits wait their turn (two chat redeliveries at once, two job creations).
    return {
      commit(statements) {
        return inTurn(dataSource, () =>
          dataSource.transaction(async (manager) => {
            for (const statement of statements) await manager.query(statement.sql, statement.params);
          }),
        );
      },
      close: async () => undefined,
    };
  }
  let pool: Pool | undefined;
  return {
    async commit(statements) {
      pool ??= batchPool(options);
      const connection: PoolConnection = await pool.getConnection();
      try {
        await connection.query(
          ['START TRANSACTION', ...statements.map((statement) => statement.sql), 'COMMIT'].join(';\n'),
          statements.flatMap((statement) => statement.params),
        );
      } catch (error) {
        // A failed statement ends the batch there, inside the open transaction: roll it back before the
        // connection goes back to the pool (or drop the connection if even that fails).
        try {
          await connection.query('ROLLBACK');
        } catch {
          connection.destroy();
          throw error;
        }
        connection.release();
        throw error;
      }
      connection.release();
    },
    async close() {
      const open = pool;
      pool = undefined;
      await open?.end();
    },
  };
}

function batchPool(options: MysqlConnectionOptions): Pool {
  return createPool({
    host: options.host,
    port: options.port,
    user: options.username,
    password: options.password,
    database: options.database,
    ssl: options.ssl as never,
    charset: 'utf8mb4_unicode_ci',
    // As the main pool: dates go over the wire as UTC.
    timezone: 'Z',
    supportBigNumbers: true,
    connectionLimit: POOL_SIZE,
    multipleStatements: true,
    // As the main pool: no stack captured per query (the caller's async stack names it).
    trace: false,
  });
}
