/**
 * Runs once before all test files: brings the compiled CLI up to date, names the run (QA_TEST_RUN_ID), and checks that
 * MySQL/MariaDB answers at TEST_DATABASE_URL, so a missing server fails the run at once with what to do, instead of
 * every database test timing out on its own. Jest loads this file outside its module system (no `.js` mapping), so it
 * imports packages only.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

const DEFAULT_TEST_DATABASE_URL = 'mysql://root@127.0.0.1:3306/qa_test'; // as in databases.ts

export default async function globalSetup(_globalConfig: unknown, project: { rootDir: string }): Promise<void> {
  buildCli(project.rootDir);
  // New in every run, so that the first MySQL test store of a run rebuilds its database (test-run-marker.ts). Jest
  // starts its workers after this hook, and they inherit the environment.
  process.env.QA_TEST_RUN_ID = randomUUID();
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
        '  - or narrow the dialect matrix to SQLite: TEST_DIALECTS=sqlite (the MySQL-only files still need MySQL)',
        '(.ci/run installs and starts MariaDB on a new machine.)',
      ].join('\n'),
      { cause: error },
    );
  }
}

/**
 * The tests run the `qa` process as `npm start` does, from `dist` (test/support/qa-cli.ts): through tsx, every spawn
 * paid about 0.8 s more to compile the sources on the fly, and the suite spawns `qa` a few hundred times. The build is
 * tsc's build mode (`npm run build`), so after `npm ci` (which builds) it only compares the sources' times with its
 * build info, in about a second: `tsc -p` with `incremental` loaded the whole program again to find nothing to do,
 * 9.5 s before any test could start and 14 s of CPU. After an edit it compiles what changed. A type error does not
 * stop the tests: tsc still writes the files (exit status 1 in build mode), and `npm run typecheck` is where type
 * errors fail; a build that leaves no CLI does stop them.
 */
function buildCli(rootDir: string): void {
  const tsc = createRequire(join(rootDir, 'package.json')).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (!existsSync(join(rootDir, 'dist/src/cli/main.js'))) {
      const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
      throw new Error(`could not build the CLI for the tests (npm run build): ${String(error)}\n${String(stdout ?? '')}${String(stderr ?? '')}`, { cause: error });
    }
  }
}
