import type { AgendaBackend, JobParameters, NotificationChannel } from 'agenda';
import type { Database } from 'better-sqlite3';
import type { Pool as CallbackPool } from 'mysql2';
import { createPool, type Pool as PromisePool, type PoolOptions } from 'mysql2/promise';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { InProcessNotificationChannel } from './in-process-channel.js';
import { MySqlExecutor } from './mysql-executor.js';
import type { ClaimOrder } from './claim.js';
import { SqlJobRepository, type ClaimListener, type StagedInsert } from './repository.js';
import { assertSafeTableName, DEFAULT_TABLE_NAME, ensureAgendaJobsTable } from './schema.js';
import type { SqlExecutor } from './sql-executor.js';
import { SqliteExecutor } from './sqlite-executor.js';

/**
 * Where the jobs live: an existing TypeORM DataSource (MySQL, MariaDB or better-sqlite3; the backend never
 * closes it), or a URL the backend connects to itself and closes on `disconnect`:
 * `mysql://user:pass@host:3306/db`, `mariadb://…`, `sqlite:/path/to/file.sqlite` or `sqlite::memory:`.
 */
export type MySqlBackendConnection = { dataSource: DataSource } | { url: string };

export interface MySqlBackendOptions {
  /** Default `agenda_jobs`. */
  tableName?: string;
  /** Create the table on connect when it is missing (default true; a migrated database can turn it off). */
  ensureSchema?: boolean;
  /** Claim order (default: earliest `nextRunAt` first, then highest priority). */
  sort?: ClaimOrder;
  /**
   * Wakes workers when a job is saved. MySQL has no LISTEN/NOTIFY, so by default there is none and workers
   * poll (Agenda's `processEvery`), like Agenda's Mongo backend. Pass `'in-process'` when producer and worker
   * share a process, or a shared channel (e.g. Agenda's Redis channel) across processes.
   */
  notificationChannel?: NotificationChannel | 'in-process';
  /** Told of every job locked for a worker, and whether it was taken over from an expired lock (for metrics). */
  onClaim?: ClaimListener;
}

/**
 * An Agenda 6 storage backend on MySQL 8 / MariaDB 10.6+, with the same behaviour on SQLite for a single
 * embedded process. `new MySqlBackend({ dataSource })` or `new MySqlBackend({ url })`.
 */
export class MySqlBackend implements AgendaBackend {
  readonly name: string;
  readonly repository: SqlJobRepository;
  readonly notificationChannel?: NotificationChannel;
  readonly ownsConnection: boolean;

  private readonly dataSource: DataSource;
  private readonly ensureSchema: boolean;
  private readonly table: string;

  constructor(connection: MySqlBackendConnection, options: MySqlBackendOptions = {}) {
    this.table = assertSafeTableName(options.tableName ?? DEFAULT_TABLE_NAME);
    this.ensureSchema = options.ensureSchema ?? true;
    this.ownsConnection = !('dataSource' in connection);
    this.dataSource = 'dataSource' in connection ? connection.dataSource : dataSourceFromUrl(connection.url);
    this.name = this.dataSource.options.type === 'better-sqlite3' ? 'SQLite' : 'MySQL';
    this.notificationChannel =
      options.notificationChannel === 'in-process' ? new InProcessNotificationChannel() : options.notificationChannel;
    this.repository = new SqlJobRepository(() => this.openExecutor(), this.table, options.sort, options.onClaim);
  }

  /**
   * The backend's one way to write a job inside someone else's transaction: the INSERT that saving this new job
   * would run (see `SqlJobRepository.stageInsert`). Commit it with the caller's rows, then tell workers.
   */
  stageInsert(job: JobParameters, lastModifiedBy?: string): StagedInsert {
    return this.repository.stageInsert(job, lastModifiedBy);
  }

  async connect(): Promise<void> {
    await this.repository.connect();
  }

  /**
   * Closes what the backend opened: its claim connections always, the database connection only when it made it
   * from a URL. Agenda calls this from `stop()` only for a backend that owns its connection; with a DataSource,
   * call it yourself after `agenda.stop()` (the service's worker does).
   */
  async disconnect(): Promise<void> {
    await this.repository.detach()?.close();
    if (this.ownsConnection && this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private async openExecutor(): Promise<SqlExecutor> {
    if (!this.dataSource.isInitialized) await this.dataSource.initialize();
    if (this.ensureSchema) {
      const runner = this.dataSource.createQueryRunner();
      try {
        await ensureAgendaJobsTable(runner, this.table);
      } finally {
        await runner.release();
      }
    }
    return executorFor(this.dataSource);
  }
}

function executorFor(dataSource: DataSource): SqlExecutor {
  const driver = dataSource.driver as unknown as { pool?: CallbackPool; databaseConnection?: Database };
  switch (dataSource.options.type) {
    case 'mysql':
    case 'mariadb':
      if (!driver.pool) throw new Error('MySqlBackend: the DataSource has no connection pool (replication is not supported)');
      return new MySqlExecutor(driver.pool.promise(), () => claimPoolFor(dataSource.options as MysqlOptions));
    case 'better-sqlite3':
      return new SqliteExecutor(driver.databaseConnection!);
    default:
      throw new Error(`MySqlBackend supports mysql, mariadb and better-sqlite3 DataSources, not ${dataSource.options.type}`);
  }
}

function dataSourceFromUrl(url: string): DataSource {
  if (url.startsWith('sqlite:')) {
    const database = url.slice('sqlite:'.length);
    return new DataSource({ type: 'better-sqlite3', database, enableWAL: database !== ':memory:' });
  }
  const scheme = url.slice(0, url.indexOf(':'));
  if (scheme !== 'mysql' && scheme !== 'mariadb') {
    throw new Error(`MySqlBackend: unsupported URL scheme "${scheme}:" (use mysql://, mariadb:// or sqlite:)`);
  }
  return new DataSource({ type: scheme, url: `mysql${url.slice(scheme.length)}`, timezone: 'Z', charset: 'utf8mb4' });
}

/** CLAIM_POOL_SIZE connections to the DataSource's server for claims only (see MySqlExecutor). */
const CLAIM_POOL_SIZE = 4;

type MysqlOptions = Extract<DataSourceOptions, { type: 'mysql' | 'mariadb' }>;

function claimPoolFor(options: MysqlOptions): PromisePool {
  const where = options.url
    ? { uri: options.url }
    : { host: options.host, port: options.port, user: options.username, password: options.password, database: options.database };
  return createPool({
    ...where,
    ssl: options.ssl as PoolOptions['ssl'],
    charset: 'utf8mb4',
    timezone: 'Z',
    connectionLimit: CLAIM_POOL_SIZE,
    multipleStatements: true,
  });
}
