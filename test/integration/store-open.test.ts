import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { isAppError } from '../../src/core/errors.js';
import { dialectOf } from '../../src/store/data-source.js';
import { ensureDatabaseExists } from '../../src/store/ensure-database.js';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';
import { openStore } from '../../src/store/open-store.js';
import { migrations } from '../../src/store/schema-registry.js';
import { closeTestStore, dropMysqlDatabase, testDialects, testMysqlUrl } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';

async function databaseExists(url: string): Promise<boolean> {
  const { host, port, user, password, database } = parseMysqlUrl(url);
  const connection = await mysql.createConnection({ host, port, user, password });
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SHOW DATABASES LIKE ?', [database]);
    return rows.length > 0;
  } finally {
    await connection.end();
  }
}

async function executedMigrations(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[];
  return rows.map((row) => row.name);
}

/** MySQL-only blocks are part of a run only when it covers MySQL (TEST_DIALECTS), like forEachDialect's. */
const describeMysql = (title: string, body: () => void) => {
  if (testDialects().includes('mysql')) describe(title, body);
};

describeMysql('ensureDatabaseExists', () => {
  const url = testMysqlUrl('_ensure');
  afterAll(async () => {
    await dropMysqlDatabase(url);
  });

  it('creates a missing database once, then finds it', async () => {
    await dropMysqlDatabase(url);

    const first = await ensureDatabaseExists(url);
    const second = await ensureDatabaseExists(url);

    expect(first).toMatchObject({ database: parseMysqlUrl(url).database, created: true });
    expect(['mysql', 'mariadb']).toContain(first.server);
    expect(second.created).toBe(false);
    expect(await databaseExists(url)).toBe(true);
  });

  it('rejects a database name that would need quoting, before connecting', async () => {
    const base = new URL(testMysqlUrl());
    for (const name of ['qa%60test', 'qa;drop', 'qa%20test', 'qa.test', 'x'.repeat(65), '']) {
      base.pathname = `/${name}`;
      const error = await ensureDatabaseExists(base.href).catch((caught: unknown) => caught);
      expect(isAppError(error) && error.code).toBe('store.invalid_database_name');
    }
  });

  it('says where it could not connect', async () => {
    const error = await ensureDatabaseExists('mysql://root@127.0.0.1:1/qa_test').catch((caught: unknown) => caught);

    expect(isAppError(error) && error.kind).toBe('operational');
    expect((error as Error).message).toMatch(/^Cannot connect to MySQL at 127\.0\.0\.1:1 as "root": .*running/);
  });
});

describeMysql('openStore on MySQL/MariaDB', () => {
  const url = testMysqlUrl('_open');
  afterAll(async () => {
    await dropMysqlDatabase(url);
  });

  it('creates the database, migrates it, and lets concurrent starters take turns on the migrations', async () => {
    await dropMysqlDatabase(url);

    const stores = await Promise.all([1, 2, 3].map(() => openStore({ database: { kind: 'mysql', url } }, silentLogger())));
    try {
      const { server } = await ensureDatabaseExists(url);
      for (const store of stores) {
        expect(dialectOf(store)).toBe('mysql');
        // TypeORM's driver flavour follows the server, so its schema reads (drift check) are right on MariaDB.
        expect(store.options.type).toBe(server);
      }
      expect(await executedMigrations(stores[0] as DataSource)).toEqual(migrations.map((m) => m.name));
    } finally {
      for (const store of stores) await store.destroy();
    }
  });
});

describe('openStore on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-test-open-'));
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('creates missing parent folders, runs the migrations, and opens the file in WAL mode', async () => {
    const path = join(folder, 'nested', 'deeper', 'qa.sqlite');

    const store = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      expect(existsSync(path)).toBe(true);
      expect(await executedMigrations(store)).toEqual(migrations.map((m) => m.name));
      expect(await store.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await store.query('PRAGMA busy_timeout')).toEqual([{ timeout: 5000 }]);
      expect(await store.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    } finally {
      await closeTestStore(store);
    }
  });

  it('runs nothing the second time', async () => {
    const path = join(folder, 'again.sqlite');
    await (await openStore({ database: { kind: 'sqlite', path } }, silentLogger())).destroy();

    const store = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      expect(await store.showMigrations()).toBe(false);
    } finally {
      await store.destroy();
    }
  });
});
