import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Column, Entity, In, PrimaryColumn, type DataSource } from 'typeorm';
import { ApiKey } from '../../src/store/entities/api-key.entity.js';
import { Job } from '../../src/store/entities/job.entity.js';
import { Organization } from '../../src/store/entities/organization.entity.js';
import { prepareDataSource } from '../../src/store/open-store.js';
import { migrations } from '../../src/store/schema-registry.js';
import { closeTestStore, freshDatabaseConfig, openUnmigratedTestStore } from '../support/databases.js';
import { forEachDialect } from '../support/dialects.js';
import { insertJobRows, jobRow } from '../support/job-rows.js';

const migrationNames = migrations.map((migration) => migration.name);

async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}

async function existingEntityTables(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const present: string[] = [];
    for (const { tableName } of dataSource.entityMetadatas) if (await runner.hasTable(tableName)) present.push(tableName);
    return present;
  } finally {
    await runner.release();
  }
}

/** An entity no migration creates: the drift check must notice it, or its "no changes" proves nothing. */
@Entity({ name: 'drift_probe' })
class DriftProbe {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'int' })
  size!: number;
}

forEachDialect('migrations', (dialect) => {
  let dataSource: DataSource | undefined;
  const store = () => dataSource as DataSource;

  beforeAll(async () => {
    dataSource = await openUnmigratedTestStore(dialect);
  });
  afterAll(async () => {
    await closeTestStore(dataSource);
  });

  it('applies every migration in order and leaves the tables exactly as the entities describe them', async () => {
    const applied = await store().runMigrations({ transaction: 'each' });

    expect(applied.map((migration) => migration.name)).toEqual(migrationNames);
    expect(await pendingSchemaChanges(store())).toEqual([]);
  });

  it('undoes every migration, down to no tables, and applies them again without drift', async () => {
    for (const _ of migrationNames) await store().undoLastMigration({ transaction: 'each' });
    expect(await existingEntityTables(store())).toEqual([]);

    const applied = await store().runMigrations({ transaction: 'each' });

    expect(applied.map((migration) => migration.name)).toEqual(migrationNames);
    expect((await existingEntityTables(store())).sort()).toEqual(store().entityMetadatas.map((m) => m.tableName).sort());
    expect(await pendingSchemaChanges(store())).toEqual([]);
  });

  it('moves created_at to milliseconds keeping every row, so rows made within one second keep their order', async () => {
    const millis = migrationNames.indexOf('MillisecondCreatedAt1763804000000');
    for (let undone = migrationNames.length; undone > millis; undone--) await store().undoLastMigration({ transaction: 'each' });
    const organizations = store().getRepository(Organization);
    await organizations.insert({ id: randomUUID(), slug: 'before-millis', name: 'Before' });
    const before = await organizations.findOneByOrFail({ slug: 'before-millis' });
    // The columns api_keys had then (the entity has grown since: its insert would name columns not made yet).
    await store().query('INSERT INTO api_keys (id, organization_id, prefix, secret_hash, label) VALUES (?, ?, ?, ?, ?)', [randomUUID(), before.id, 'qa_old', 'a'.repeat(64), null]);

    await store().runMigrations({ transaction: 'each' });

    // The table rebuild on SQLite must neither drop the row nor cascade into the keys that reference it.
    expect((await organizations.findOneByOrFail({ slug: 'before-millis' })).createdAt).toEqual(before.createdAt);
    expect(await store().getRepository(ApiKey).countBy({ organizationId: before.id })).toBe(1);
    const slugs = Array.from({ length: 5 }, (_, index) => `within-${index}`);
    for (const slug of slugs) {
      await organizations.insert({ id: randomUUID(), slug, name: slug });
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const made = await organizations.find({ where: { slug: In(slugs) }, order: { createdAt: 'ASC' } });
    expect(made.map((organization) => organization.slug)).toEqual(slugs);
    expect(new Set(made.map((organization) => organization.createdAt.getTime())).size).toBe(slugs.length);
  });

  it('gives jobs from before updated_at the latest time they recorded, so the updates stream orders them sensibly', async () => {
    const added = migrationNames.indexOf('AddJobListingIndexes1765300000000');
    for (let undone = migrationNames.length; undone > added; undone--) await store().undoLastMigration({ transaction: 'each' });
    const organizationId = randomUUID();
    await store().getRepository(Organization).insert({ id: organizationId, slug: 'before-updated-at', name: 'Before' });
    // The columns of 1765300000000's `repositories`: the entity of today has more.
    const repositoryId = randomUUID();
    await store().query(
      'INSERT INTO repositories (id, organization_id, provider, provider_installation_id, owner, name, default_branch, clone_url, base_url, network_allowlist, test_value_secret_refs, evidence_probe_refs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [repositoryId, organizationId, 'codehost', '1', 'acme', 'shop', 'main', 'https://code.example.com/acme/shop.git', 'https://shop.example.com', '[]', '{}', '{}'],
    );
    const created = new Date('2026-11-01T10:00:00.000Z');
    const started = new Date('2026-11-01T10:00:05.000Z');
    const finished = new Date('2026-11-01T10:01:00.000Z');
    const rows = [
      jobRow(organizationId, repositoryId, { createdAt: created }),
      jobRow(organizationId, repositoryId, { createdAt: created, startedAt: started, status: 'running' }),
      jobRow(organizationId, repositoryId, { createdAt: created, startedAt: started, finishedAt: finished, status: 'passed' }),
    ].map(({ updatedAt: _, ...row }) => row);
    await insertJobRows(store(), rows);

    await store().runMigrations({ transaction: 'each' });

    const stored = await store().getRepository(Job).find({ where: { organizationId }, select: { id: true, updatedAt: true } });
    const byId = new Map(stored.map((job) => [job.id, job.updatedAt.toISOString()]));
    expect(rows.map((row) => byId.get(row.id!))).toEqual([created, started, finished].map((date) => date.toISOString()));
    expect(await pendingSchemaChanges(store())).toEqual([]);
  });

  it('reports an entity without a migration as drift (the check is not vacuous)', async () => {
    const probe = await prepareDataSource(await freshDatabaseConfig(dialect, '_probe'), undefined, {
      entities: [DriftProbe],
    });
    await probe.initialize();
    try {
      await probe.runMigrations({ transaction: 'each' });
      const changes = await pendingSchemaChanges(probe);
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatch(/^CREATE TABLE [`"]drift_probe[`"]/);
    } finally {
      await closeTestStore(probe);
    }
  });
});

describe('migration classes', () => {
  it('carry a name that ends in their timestamp, and the registry lists them in timestamp order', () => {
    const timestamps = migrationNames.map((name) => Number(/(\d{13})$/.exec(name)?.[1]));
    expect(timestamps.every((timestamp) => Number.isFinite(timestamp))).toBe(true);
    expect([...timestamps].sort((a, b) => a - b)).toEqual(timestamps);
  });
});
