/**
 * Runs once before all test files: checks that MySQL/MariaDB answers at TEST_DATABASE_URL, so a missing server
 * fails the run at once with what to do, instead of every database test timing out on its own.
 * Jest loads this file outside its module system (no `.js` mapping), so it imports packages only.
 */
import mysql from 'mysql2/promise';

const DEFAULT_TEST_DATABASE_URL = 'mysql://root@127.0.0.1:3306/qa_test'; // as in databases.ts

export default async function globalSetup(): Promise<void> {
  const dialects = process.env.TEST_DIALECTS ?? '';
  if (dialects.trim() !== '' && !dialects.split(',').some((name) => name.trim() === 'mysql')) return;

  const url = new URL(process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL);
  const host = url.hostname;
  const port = Number(url.port || 3306);
  const user = decodeURIComponent(url.username);
  try {
    const connection = await mysql.createConnection({
      host,
      port,
      user,
      password: decodeURIComponent(url.password),
      connectTimeout: 5_000,
    });
    await connection.end();
  } catch (error) {
    throw new Error(
      [
        `MySQL/MariaDB did not answer at ${host}:${port} as ${JSON.stringify(user)}: ${(error as Error).message}`,
        'The store and queue tests run against a real server. Either:',
        '  - start MariaDB:   start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql',
        "    (root over TCP with no password: mariadb -uroot -e \"ALTER USER root@localhost IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket\")",
        '  - or point the tests elsewhere: TEST_DATABASE_URL=mysql://user:password@host:3306/qa_test',
        '  - or run only the SQLite half: TEST_DIALECTS=sqlite',
        '(.ci/run installs and starts MariaDB on a new machine.)',
      ].join('\n'),
      { cause: error },
    );
  }
}
