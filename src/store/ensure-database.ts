import type { RowDataPacket } from 'mysql2/promise';
import { ErrorCode, operationalError, userError } from '../core/errors.js';
import { parseMysqlUrl, SAFE_DATABASE_NAME } from './mysql-url.js';

export interface EnsureDatabaseResult {
  database: string;
  created: boolean;
  /** What answered: MariaDB reports itself in `VERSION()`. */
  server: 'mysql' | 'mariadb';
}

function quoteIdentifier(name: string): string {
  return '`' + name.replaceAll('`', '``') + '`';
}

/**
 * Creates the database named in a `mysql://` URL when it does not exist (utf8mb4), connecting without a default
 * database. Names outside `[A-Za-z0-9_$-]` are rejected before any connection is made.
 */
export async function ensureDatabaseExists(url: string): Promise<EnsureDatabaseResult> {
  const { host, port, user, password, database } = parseMysqlUrl(url);
  if (!SAFE_DATABASE_NAME.test(database)) {
    throw userError(
      ErrorCode.StoreInvalidDatabaseName,
      `Invalid database name ${JSON.stringify(database)} in the MySQL URL: use 1 to 64 letters, digits, _, $ or -`,
    );
  }

  // Loaded here, for a MySQL store only: the embedded SQLite default never needs the client.
  const { default: mysql } = await import('mysql2/promise');
  const connection = await mysql.createConnection({ host, port, user, password, connectTimeout: 10_000 }).catch(
    (error: unknown) => {
      throw operationalError(
        ErrorCode.StoreUnreachable,
        `Cannot connect to MySQL at ${host}:${port} as ${JSON.stringify(user)}: ${(error as Error).message}. ` +
          'Check that the server is running and that this user may log in over TCP.',
        { cause: error },
      );
    },
  );
  try {
    const [rows] = await connection.query<RowDataPacket[]>(
      'SELECT VERSION() AS version, (SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?) AS present',
      [database],
    );
    const server = /mariadb/i.test(String(rows[0]?.version)) ? 'mariadb' : 'mysql';
    if (Number(rows[0]?.present) > 0) return { database, created: false, server };
    await connection.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)} CHARACTER SET utf8mb4`);
    return { database, created: true, server };
  } catch (error) {
    throw operationalError(
      ErrorCode.StoreCreateDatabaseFailed,
      `Cannot create database ${JSON.stringify(database)}: ${(error as Error).message}. ` +
        'Create it yourself or grant this user the CREATE privilege.',
      { cause: error },
    );
  } finally {
    await connection.end();
  }
}
