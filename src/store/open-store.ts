import type { DataSource } from 'typeorm';
import { ErrorCode, operationalError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { createDataSource, dialectOf, type DataSourceExtra, type DatabaseSettings } from './data-source.js';
import { ensureDatabaseExists } from './ensure-database.js';
import { redactUrl } from './mysql-url.js';

/** How long a process waits for another process (a second `serve` or `worker`) to finish migrating. */
const MIGRATION_LOCK_TIMEOUT_S = 120;

/**
 * `createDataSource` after a look at the server: a missing MySQL database is created, and TypeORM's `mysql` or
 * `mariadb` flavour is chosen by what answers. Not yet initialized.
 */
export async function prepareDataSource(
  database: DatabaseSettings,
  logger?: Logger,
  extra: Omit<DataSourceExtra, 'mysqlServer'> = {},
): Promise<DataSource> {
  if (database.kind === 'sqlite') return createDataSource(database, extra);
  const ensured = await ensureDatabaseExists(database.url);
  if (ensured.created) logger?.info({ database: ensured.database }, 'created database');
  return createDataSource(database, { ...extra, mysqlServer: ensured.server });
}

/**
 * The store, ready to use: creates the MySQL database if it is missing, connects, and runs pending migrations
 * (each in its own transaction). Close it with `dataSource.destroy()`.
 */
export async function openStore(config: { database: DatabaseSettings }, logger: Logger): Promise<DataSource> {
  const { database } = config;
  const where = database.kind === 'mysql' ? redactUrl(database.url) : database.path;
  const dataSource = await prepareDataSource(database, logger);
  try {
    await dataSource.initialize();
  } catch (error) {
    throw operationalError(ErrorCode.StoreUnreachable, `Cannot open the database at ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  try {
    const applied = await withMigrationLock(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
    for (const migration of applied) logger.info({ migration: migration.name }, 'applied migration');
    logger.debug({ dialect: dialectOf(dataSource), database: where }, 'store open, schema up to date');
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * Several processes may start at once against one MySQL database; TypeORM has no migration lock of its own, so a
 * named server lock (held by one dedicated connection) makes them take turns. SQLite is single-process.
 */
async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (dialectOf(dataSource) !== 'mysql') return work();
  const lockName = `qa_migrations.${String(dataSource.driver.database)}`.slice(0, 64);
  const runner = dataSource.createQueryRunner();
  try {
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS acquired', [lockName, MIGRATION_LOCK_TIMEOUT_S])) as {
      acquired: number | string | null;
    }[];
    if (Number(row?.acquired) !== 1) {
      throw operationalError(
        ErrorCode.StoreMigrationLockTimeout,
        `Another process held the migration lock ${lockName} for ${MIGRATION_LOCK_TIMEOUT_S} s; is a migration stuck?`,
      );
    }
    try {
      return await work();
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [lockName]);
    }
  } finally {
    await runner.release();
  }
}
