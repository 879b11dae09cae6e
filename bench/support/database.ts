import mysql from 'mysql2/promise';
import pg from 'pg';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';

function assertBenchName(database: string): void {
  if (!/bench/i.test(database)) throw new Error(`a bench's database URL must name a database with "bench" in its name (it is dropped); got "${database}"`);
}

/**
 * Drops a bench's database (openStore creates it again; `create` creates it empty now) and tells the server's
 * version; refuses any database whose name does not say it is a bench's, since it is dropped.
 */
export async function freshBenchDatabase(url: string, { create = false }: { create?: boolean } = {}): Promise<{ version: string }> {
  const { host, port, user, password, database } = parseMysqlUrl(url);
  assertBenchName(database);
  const connection = await mysql.createConnection({ host, port, user, password });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    if (create) await connection.query(`CREATE DATABASE \`${database}\``);
    const [rows] = await connection.query('SELECT VERSION() AS version');
    return { version: String((rows as { version: string }[])[0]!.version) };
  } finally {
    await connection.end();
  }
}

/** The same on PostgreSQL: drops the bench's database and creates it empty. */
export async function freshPostgresBenchDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  assertBenchName(database);
  target.pathname = '/postgres';
  const server = new pg.Client({ connectionString: target.toString() });
  await server.connect();
  try {
    await server.query(`DROP DATABASE IF EXISTS "${database}"`);
    await server.query(`CREATE DATABASE "${database}"`);
  } finally {
    await server.end();
  }
}
