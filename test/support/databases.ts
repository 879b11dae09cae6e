/**
 * Real databases for tests, one per Jest worker so that workers never share rows: MySQL/MariaDB at
 * TEST_DATABASE_URL with `_w<JEST_WORKER_ID>` appended to the database name, and a SQLite file in a fresh
 * temporary folder. TEST_DIALECTS=sqlite (or mysql) narrows `forEachDialect` to one of them.
 *
 * The MySQL database is migrated once per Jest run and worker, and emptied for each later store (test-run-marker.ts).
 * A SQLite store is a copy of a file migrated once per run and worker (sqliteTemplatePath).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../src/config.js';
import { dialectOf, type Dialect } from '../../src/store/data-source.js';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';
import { openStore, prepareDataSource } from '../../src/store/open-store.js';
import { silentLogger } from './logger.js';
import { markTestRun, matchesTestRun } from './test-run-marker.js';

export type { Dialect };

export const DEFAULT_TEST_DATABASE_URL = 'mysql://root@127.0.0.1:3306/qa_test';
const ALL_DIALECTS: readonly Dialect[] = ['mysql', 'sqlite'];

export function baseTestDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
}

/** The dialects this run covers (TEST_DIALECTS, comma-separated; default both). */
export function testDialects(): Dialect[] {
  const wanted = (process.env.TEST_DIALECTS ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  if (wanted.length === 0) return [...ALL_DIALECTS];
  const unknown = wanted.filter((name) => !ALL_DIALECTS.includes(name as Dialect));
  if (unknown.length > 0) throw new Error(`TEST_DIALECTS: unknown dialect(s) ${unknown.join(', ')}; use mysql, sqlite`);
  return wanted as Dialect[];
}

/** This worker's MySQL URL: the base URL's database name + `_w<worker>` + `suffix`. */
export function testMysqlUrl(suffix = ''): string {
  const url = new URL(baseTestDatabaseUrl());
  const base = parseMysqlUrl(url.href).database || 'qa_test';
  url.pathname = `/${base}_w${process.env.JEST_WORKER_ID ?? '1'}${suffix}`;
  return url.href;
}

/**
 * A database config no other worker or test file uses; the MySQL one is dropped first (which also clears its run
 * marker, so the next `openTestStore` rebuilds it), the SQLite one is new.
 */
export async function freshDatabaseConfig(dialect: Dialect, mysqlSuffix = ''): Promise<DatabaseConfig> {
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), `qa-test-w${process.env.JEST_WORKER_ID ?? '1'}-`));
    return { kind: 'sqlite', path: join(folder, 'qa.sqlite') };
  }
  const url = testMysqlUrl(mysqlSuffix);
  await dropMysqlDatabase(url);
  return { kind: 'mysql', url };
}

export async function dropMysqlDatabase(url: string): Promise<void> {
  const { host, port, user, password, database } = parseMysqlUrl(url);
  const connection = await mysql.createConnection({ host, port, user, password });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  } finally {
    await connection.end();
  }
}

/** A migrated store for `dialect` with every table empty. Close it with `closeTestStore`. */
export async function openTestStore(dialect: Dialect): Promise<DataSource> {
  if (dialect === 'mysql') return openWorkerMysqlStore(testMysqlUrl(), process.env.QA_TEST_RUN_ID);
  const runId = process.env.QA_TEST_RUN_ID;
  const database = await freshDatabaseConfig(dialect);
  if (runId !== undefined && database.kind === 'sqlite') copyFileSync(await migratedSqliteTemplate(runId), database.path);
  return openStore({ database }, silentLogger());
}

/**
 * Where this worker keeps the SQLite file it migrated for run `runId`: in the run's folder, which the global teardown
 * removes (global-teardown.ts).
 */
export function testRunFolder(runId: string): string {
  return join(tmpdir(), `qa-test-run-${runId}`);
}

/**
 * This worker's migrated, empty SQLite file of the run, made by the first SQLite store of the run on the worker:
 * every later store copies it instead of running every migration again (each commits, an fsync apiece). A copy's
 * store still checks that no migration is pending, and a test that changes its schema changes only its copy.
 */
async function migratedSqliteTemplate(runId: string): Promise<string> {
  const template = join(testRunFolder(runId), `sqlite-w${process.env.JEST_WORKER_ID ?? '1'}.sqlite`);
  if (existsSync(template)) return template;
  mkdirSync(dirname(template), { recursive: true });
  // Migrated under another name and renamed when closed (no WAL left beside it), so that no copy sees it half made.
  const partial = `${template}.${process.pid}.partial`;
  const dataSource = await openStore({ database: { kind: 'sqlite', path: partial } }, silentLogger());
  await dataSource.destroy();
  renameSync(partial, template);
  return template;
}

/**
 * The MySQL store at `url`, migrated and empty. The first open of run `runId` (QA_TEST_RUN_ID) drops, creates and
 * migrates the database; a later one whose database still matches the run (test-run-marker.ts) only deletes rows
 * left behind. With no run id, every open rebuilds.
 */
export async function openWorkerMysqlStore(url: string, runId: string | undefined): Promise<DataSource> {
  const reuse = runId !== undefined && (await matchesTestRun(url, runId));
  if (!reuse) await dropMysqlDatabase(url);
  const dataSource = await openStore({ database: { kind: 'mysql', url } }, silentLogger());
  try {
    if (reuse) await cleanTables(dataSource);
    if (!reuse && runId !== undefined) await markTestRun(url, runId);
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/** A fresh, connected store with no migrations run yet (for migration tests). */
export async function openUnmigratedTestStore(dialect: Dialect): Promise<DataSource> {
  const dataSource = await prepareDataSource(await freshDatabaseConfig(dialect));
  return dataSource.initialize();
}

/** Closes the store and removes a SQLite test file's folder. */
export async function closeTestStore(dataSource: DataSource | undefined): Promise<void> {
  if (dataSource === undefined) return;
  const sqlitePath = dialectOf(dataSource) === 'sqlite' ? String(dataSource.options.database) : undefined;
  if (dataSource.isInitialized) await dataSource.destroy();
  if (sqlitePath !== undefined) rmSync(dirname(sqlitePath), { recursive: true, force: true });
}

/**
 * Deletes every row of every entity table (the migrations table is kept), foreign-key checks off meanwhile; an empty
 * store costs one query.
 */
export async function cleanTables(dataSource: DataSource): Promise<void> {
  const mysqlDialect = dialectOf(dataSource) === 'mysql';
  const quote = (name: string) => (mysqlDialect ? `\`${name}\`` : `"${name}"`);
  // Which tables hold a row, in one query: most tests write to a few of the schema's tables, and a DELETE per table
  // (all of them, after every test) was a fifth of the suite's queries.
  const tables = dataSource.entityMetadatas.map(({ tableName }) => tableName);
  const probes = tables.map((table, index) => `EXISTS (SELECT 1 FROM ${quote(table)}) AS t${index}`);
  const [present] = (await dataSource.query(`SELECT ${probes.join(', ')}`)) as Record<string, number | string>[];
  const written = tables.filter((_table, index) => Number(present?.[`t${index}`]) === 1);
  if (written.length === 0) return;
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(mysqlDialect ? 'SET FOREIGN_KEY_CHECKS = 0' : 'PRAGMA foreign_keys = OFF');
    for (const table of written) await runner.query(`DELETE FROM ${quote(table)}`);
  } finally {
    await runner.query(mysqlDialect ? 'SET FOREIGN_KEY_CHECKS = 1' : 'PRAGMA foreign_keys = ON');
    await runner.release();
  }
}
