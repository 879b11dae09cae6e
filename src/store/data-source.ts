import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { parseMysqlUrl } from './mysql-url.js';
import { useMillisecondCreateDates } from './created-at.js';
import * as schema from './schema-registry.js';
import type { ClassList } from './schema-registry.js';

/** Where the store lives: a MySQL/MariaDB server, or the embedded SQLite file. */
export type DatabaseSettings =
  | { readonly kind: 'mysql'; readonly url: string }
  | { readonly kind: 'sqlite'; readonly path: string };

export type Dialect = DatabaseSettings['kind'];

export type MysqlServer = 'mysql' | 'mariadb';

export interface DataSourceExtra {
  /** Entity classes added to the registry's (tests, plug-ins). */
  entities?: ClassList;
  /** Migration classes added to the registry's. */
  migrations?: ClassList;
  /**
   * Which server a MySQL URL points at; TypeORM reads MariaDB's information_schema correctly only with its
   * `mariadb` flavour (with `mysql`, every nullable column and JSON column looks changed to the schema builder).
   * Default: `mariadb` for a `mariadb://` URL, else `mysql`. `prepareDataSource` asks the server instead.
   */
  mysqlServer?: MysqlServer;
}

/** How long a SQLite writer waits for another connection's write lock before failing with SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * A DataSource (not yet initialized) for the configured database, with every entity and migration of
 * schema-registry.ts. MySQL/MariaDB through mysql2; otherwise the embedded better-sqlite3 file.
 */
export function createDataSource(database: DatabaseSettings, extra: DataSourceExtra = {}): DataSource {
  const parts = {
    entities: [...schema.entities, ...(extra.entities ?? [])],
    migrations: [...schema.migrations, ...(extra.migrations ?? [])],
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };

  if (database.kind === 'mysql') {
    // Parsed here rather than passed as `url`: TypeORM's URL parser leaves the database name percent-encoded.
    const { host, port, user, password, database: name } = parseMysqlUrl(database.url);
    return useMillisecondCreateDates(new DataSource({
      ...parts,
      type: extra.mysqlServer ?? (database.url.startsWith('mariadb:') ? 'mariadb' : 'mysql'),
      host,
      port,
      username: user,
      password,
      database: name,
      // Dates go over the wire as UTC and come back as Date objects; DATETIME columns hold UTC.
      timezone: 'Z',
      dateStrings: false,
      supportBigNumbers: true,
      charset: 'utf8mb4_unicode_ci',
      // mysql2 captures a stack trace for every query in case it fails (about 4% of the CPU of a job creation);
      // TypeORM awaits each query and throws its own QueryFailedError, whose async stack already names the caller.
      trace: false,
    }));
  }

  if (database.path !== ':memory:') mkdirSync(dirname(resolve(database.path)), { recursive: true });
  return useMillisecondCreateDates(new DataSource({
    ...parts,
    type: 'better-sqlite3',
    database: database.path,
    prepareDatabase: (db: BetterSqlite3.Database) => {
      // WAL lets readers (the HTTP side) run while the worker writes; busy_timeout waits out short write locks.
      db.pragma('journal_mode = WAL');
      db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    },
  }));
}

export function dialectOf(dataSource: DataSource): Dialect {
  return dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
}
