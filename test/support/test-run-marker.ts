/**
 * Which Jest run migrated a worker's MySQL test database, so that later `useTestStore` blocks of the same run reuse it
 * instead of dropping, creating and migrating it again (MariaDB's DDL: about 1 s of wall time per block).
 *
 * The marker is a row in a table of the test database itself (dropping the database drops it) holding the run's id
 * (QA_TEST_RUN_ID, new in every run: global-setup.ts) and a fingerprint of the schema taken right after the migrations
 * ran. A database matches the run only if the marker names the run, its migrations table lists exactly the project's
 * migrations in order, and its schema still has that fingerprint: a test that adds or alters a table without calling
 * `markTestStoreDirty` still gets a rebuild.
 */
import { createHash } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';
import { migrations } from '../../src/store/schema-registry.js';

const MARKER_TABLE = 'test_store_run';
/** TypeORM's default; data-source.ts does not rename it. */
const MIGRATIONS_TABLE = 'migrations';
const ER_BAD_DB_ERROR = 1049;
const ER_NO_SUCH_TABLE = 1146;

/**
 * What the schema is made of, read from information_schema: tables, columns, indexes, constraints and triggers.
 * Nothing that rows change (row counts, AUTO_INCREMENT, index cardinality) is read.
 */
const SCHEMA_QUERIES = [
  'SELECT TABLE_NAME, TABLE_TYPE, ENGINE, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
  `SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, COLUMN_TYPE, COLLATION_NAME, EXTRA
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  `SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE, SUB_PART, COLLATION, INDEX_TYPE
     FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  `SELECT TABLE_NAME, CONSTRAINT_NAME, CONSTRAINT_TYPE
     FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, CONSTRAINT_NAME, CONSTRAINT_TYPE`,
  `SELECT TABLE_NAME, CONSTRAINT_NAME, REFERENCED_TABLE_NAME, UPDATE_RULE, DELETE_RULE
     FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? ORDER BY TABLE_NAME, CONSTRAINT_NAME`,
  `SELECT TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
     FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
  `SELECT TRIGGER_NAME, EVENT_OBJECT_TABLE, EVENT_MANIPULATION, ACTION_TIMING, ACTION_STATEMENT
     FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY TRIGGER_NAME`,
];

/** Whether the database at `url` was migrated by run `runId` and is still exactly as those migrations left it. */
export async function matchesTestRun(url: string, runId: string): Promise<boolean> {
  return withServer(url, async (connection, database) => {
    const [markers] = await absentAsEmpty(
      connection.query<mysql.RowDataPacket[]>(`SELECT run_id, fingerprint FROM ${quote(database)}.${MARKER_TABLE}`),
    );
    if (markers.length !== 1 || markers[0]?.run_id !== runId) return false;
    const [applied] = await absentAsEmpty(
      connection.query<mysql.RowDataPacket[]>(`SELECT name FROM ${quote(database)}.${MIGRATIONS_TABLE} ORDER BY id`),
    );
    const expected = migrations.map((migration) => migration.name);
    if (JSON.stringify(applied.map((row) => row.name as string)) !== JSON.stringify(expected)) return false;
    return (await schemaFingerprint(connection, database)) === markers[0]?.fingerprint;
  });
}

/** Records that run `runId` has just migrated the database at `url` (called right after the migrations ran). */
export async function markTestRun(url: string, runId: string): Promise<void> {
  await withServer(url, async (connection, database) => {
    const table = `${quote(database)}.${MARKER_TABLE}`;
    await connection.query(`CREATE TABLE IF NOT EXISTS ${table} (run_id VARCHAR(64) NOT NULL, fingerprint CHAR(64) NOT NULL)`);
    const fingerprint = await schemaFingerprint(connection, database);
    await connection.query(`DELETE FROM ${table}`);
    await connection.query(`INSERT INTO ${table} (run_id, fingerprint) VALUES (?, ?)`, [runId, fingerprint]);
  });
}

/**
 * For a test that changes the schema of its store (adds a table, alters one, undoes migrations): the next
 * `useTestStore` block then rebuilds the database. Call it before the change, so that a failure halfway still counts.
 */
export async function markTestStoreDirty(dataSource: DataSource): Promise<void> {
  await dataSource.query(`DROP TABLE IF EXISTS ${MARKER_TABLE}`);
}

async function schemaFingerprint(connection: mysql.Connection, database: string): Promise<string> {
  const hash = createHash('sha256');
  for (const sql of SCHEMA_QUERIES) {
    const [rows] = await connection.query<mysql.RowDataPacket[]>({ sql, rowsAsArray: true }, [database]);
    hash.update(JSON.stringify(rows)).update('\n');
  }
  return hash.digest('hex');
}

/** A connection to the server of `url` with no default database, so that a missing database is not an error. */
async function withServer<T>(url: string, work: (connection: mysql.Connection, database: string) => Promise<T>): Promise<T> {
  const { host, port, user, password, database } = parseMysqlUrl(url);
  const connection = await mysql.createConnection({ host, port, user, password });
  try {
    return await work(connection, database);
  } finally {
    await connection.end();
  }
}

/** A query of a table that is missing (or whose database is) as no rows: such a database matches no run. */
async function absentAsEmpty(query: Promise<[mysql.RowDataPacket[], unknown]>): Promise<[mysql.RowDataPacket[], unknown]> {
  try {
    return await query;
  } catch (error) {
    const errno = (error as { errno?: number }).errno;
    if (errno === ER_NO_SUCH_TABLE || errno === ER_BAD_DB_ERROR) return [[], undefined];
    throw error;
  }
}

function quote(name: string): string {
  return `\`${name}\``;
}
