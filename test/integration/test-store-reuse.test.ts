import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ApiKey } from '../../src/store/entities/api-key.entity.js';
import { Organization } from '../../src/store/entities/organization.entity.js';
import { migrations } from '../../src/store/schema-registry.js';
import { dropMysqlDatabase, openWorkerMysqlStore, testDialects, testMysqlUrl } from '../support/databases.js';
import { markTestStoreDirty } from '../support/test-run-marker.js';

/** MySQL-only, like the stores it tests: part of a run only when the run covers MySQL (TEST_DIALECTS). */
const describeMysql = (title: string, body: () => void) => {
  if (testDialects().includes('mysql')) describe(title, body);
};

type CreateTimes = Record<string, number>;

/** When each table of the store's database was created: a rebuild (or an ALTER that copies the table) changes it. */
async function createTimes(store: DataSource): Promise<CreateTimes> {
  const rows = (await store.query(
    'SELECT TABLE_NAME AS name, CREATE_TIME AS created FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
  )) as { name: string; created: Date | null }[];
  return Object.fromEntries(rows.map(({ name, created }) => [name, created?.getTime() ?? Number.NaN]));
}

/** CREATE_TIME has whole seconds: after this, a table created again cannot carry an old time. */
async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 20));
}

async function rowCounts(store: DataSource): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { tableName } of store.entityMetadatas) {
    const [row] = (await store.query(`SELECT COUNT(*) AS n FROM \`${tableName}\``)) as { n: number | string }[];
    counts[tableName] = Number(row?.n);
  }
  return counts;
}

async function executedMigrations(store: DataSource): Promise<string[]> {
  const rows = (await store.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[];
  return rows.map((row) => row.name);
}

async function tableNames(store: DataSource): Promise<string[]> {
  const rows = (await store.query('SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()')) as {
    name: string;
  }[];
  return rows.map((row) => row.name).sort();
}

describeMysql('the worker MySQL test store, migrated once per run', () => {
  const url = testMysqlUrl('_reuse');
  const run = randomUUID();
  let store: DataSource | undefined;

  /** Opens the store as run `runId` would (no default: `undefined` is a case of its own), closing the last one. */
  async function openAs(runId: string | undefined): Promise<DataSource> {
    if (store?.isInitialized) await store.destroy();
    store = await openWorkerMysqlStore(url, runId);
    return store;
  }
  const open = () => openAs(run);

  /** A store of `run` with rows in two tables, closed without cleaning, and when its tables were created. */
  async function usedStore(): Promise<CreateTimes> {
    const used = await open();
    const organization = { id: randomUUID(), slug: 'left-behind', name: 'Left behind' };
    await used.getRepository(Organization).insert(organization);
    await used.getRepository(ApiKey).insert({ id: randomUUID(), organizationId: organization.id, prefix: 'qa_left', secretHash: 'a'.repeat(64), label: null });
    const times = await createTimes(used);
    await nextSecond();
    return times;
  }

  /** Empty entity tables, every migration, and no difference between the entities and the tables. */
  async function expectEmptyAndComplete(opened: DataSource): Promise<void> {
    expect(Object.values(await rowCounts(opened)).every((count) => count === 0)).toBe(true);
    expect(await executedMigrations(opened)).toEqual(migrations.map((migration) => migration.name));
    expect((await opened.driver.createSchemaBuilder().log()).upQueries.map((query) => query.query)).toEqual([]);
  }

  function expectRebuilt(before: CreateTimes, after: CreateTimes): void {
    const tables = Object.keys(before).filter((name) => name in after);
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.filter((name) => after[name] === before[name])).toEqual([]);
  }

  afterEach(async () => {
    if (store?.isInitialized) await store.destroy();
  });
  afterAll(async () => {
    await dropMysqlDatabase(url);
  });

  it('runs in a Jest run with an id of its own (global-setup.ts), or no store would be reused', () => {
    expect(process.env.QA_TEST_RUN_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('opens a second time in the same run without DDL, with the rows left behind deleted and the full schema', async () => {
    const before = await usedStore();

    const again = await open();

    expect(await createTimes(again)).toEqual(before);
    await expectEmptyAndComplete(again);
  });

  it('rebuilds the database on the first open of another run', async () => {
    const before = await usedStore();

    const next = await openAs(randomUUID());

    expectRebuilt(before, await createTimes(next));
    await expectEmptyAndComplete(next);
  });

  it('rebuilds a database whose migrations table lacks one of the project’s migrations', async () => {
    const before = await usedStore();
    await store!.query('DELETE FROM migrations ORDER BY id DESC LIMIT 1');

    const reopened = await open();

    expectRebuilt(before, await createTimes(reopened));
    await expectEmptyAndComplete(reopened);
  });

  it('rebuilds a database whose migrations table lists a migration the project does not have', async () => {
    const before = await usedStore();
    await store!.query('INSERT INTO migrations (timestamp, name) VALUES (?, ?)', [1999999999999, 'Unknown1999999999999']);

    const reopened = await open();

    expectRebuilt(before, await createTimes(reopened));
    await expectEmptyAndComplete(reopened);
  });

  it('rebuilds a database marked dirty', async () => {
    const before = await usedStore();
    await markTestStoreDirty(store!);

    const reopened = await open();

    expectRebuilt(before, await createTimes(reopened));
    await expectEmptyAndComplete(reopened);
  });

  it('rebuilds a database whose schema was changed without a mark: a table added, a column added', async () => {
    const before = await usedStore();
    await store!.query('CREATE TABLE test_extra (id INT PRIMARY KEY)');
    await store!.query('ALTER TABLE organizations ADD COLUMN test_extra INT NULL');

    const reopened = await open();

    expectRebuilt(before, await createTimes(reopened));
    expect(await tableNames(reopened)).not.toContain('test_extra');
    await expectEmptyAndComplete(reopened);
  });

  it('rebuilds on every open when the run has no id', async () => {
    const before = await usedStore();

    const reopened = await openAs(undefined);

    expectRebuilt(before, await createTimes(reopened));
    await expectEmptyAndComplete(reopened);
  });
});
