import mysql from 'mysql2/promise';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';

/**
 * Drops a bench's database (openStore creates it again) and tells the server's version; refuses any database whose
 * name does not say it is a bench's, since it is dropped.
 */
export async function freshBenchDatabase(url: string): Promise<{ version: string }> {
  const { host, port, user, password, database } = parseMysqlUrl(url);
  if (!/bench/i.test(database)) throw new Error(`BENCH_DATABASE_URL must name a database with "bench" in its name (it is dropped); got "${database}"`);
  const connection = await mysql.createConnection({ host, port, user, password });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    const [rows] = await connection.query('SELECT VERSION() AS version');
    return { version: String((rows as { version: string }[])[0]!.version) };
  } finally {
    await connection.end();
  }
}
