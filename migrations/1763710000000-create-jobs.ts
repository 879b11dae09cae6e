import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

const fk = (table: string, column: string, referenced: string, onDelete: 'CASCADE' | 'SET NULL') =>
  new TableForeignKey({
    name: `FK_${table}_${column}`,
    columnNames: [column],
    referencedTableName: referenced,
    referencedColumnNames: ['id'],
    onDelete,
    onUpdate: 'NO ACTION',
  });

/** Connected repositories, checks, jobs and their event history (entities in src/store/entities/). */
export class CreateJobs1763710000000 implements MigrationInterface {
  name = 'CreateJobs1763710000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'repositories',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'provider', type: 'varchar', length: '32' },
          { name: 'provider_installation_id', type: 'varchar', length: '64' },
          { name: 'owner', type: 'varchar', length: '100' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'default_branch', type: 'varchar', length: '255' },
          { name: 'clone_url', type: 'varchar', length: '2048' },
          { name: 'base_url', type: 'varchar', length: '2048' },
          { name: 'network_allowlist', type: 'json' },
          { name: 'test_value_secret_refs', type: 'json' },
          { name: 'evidence_probe_refs', type: 'json' },
          { name: 'revision', type: 'varchar', length: '64', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_repositories_organization_id', columnNames: ['organization_id'] })],
        foreignKeys: [fk('repositories', 'organization_id', 'organizations', 'CASCADE')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'checks',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'repository_id', type: 'varchar', length: '36' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'task', type: 'text' },
          { name: 'version', type: 'integer', default: 0 },
          legacyCreateDateColumn(runner),
        ],
        indices: [
          new TableIndex({ name: 'IDX_checks_organization_id', columnNames: ['organization_id'] }),
          new TableIndex({ name: 'IDX_checks_repository_id', columnNames: ['repository_id'] }),
        ],
        foreignKeys: [
          fk('checks', 'organization_id', 'organizations', 'CASCADE'),
          fk('checks', 'repository_id', 'repositories', 'CASCADE'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'jobs',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'repository_id', type: 'varchar', length: '36' },
          { name: 'check_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'parent_job_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'status', type: 'varchar', length: '32' },
          { name: 'task', type: 'text', isNullable: true },
          { name: 'base_url', type: 'varchar', length: '2048' },
          { name: 'commit_sha', type: 'varchar', length: '64', isNullable: true },
          { name: 'trigger', type: 'varchar', length: '16' },
          { name: 'network_allowlist', type: 'json' },
          { name: 'channel_context', type: 'json', isNullable: true },
          { name: 'resolution', type: 'json', isNullable: true },
          { name: 'workflow_id', type: 'varchar', length: '36', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        indices: [
          new TableIndex({ name: 'IDX_jobs_organization_id', columnNames: ['organization_id'] }),
          new TableIndex({ name: 'IDX_jobs_parent_job_id', columnNames: ['parent_job_id'] }),
        ],
        foreignKeys: [
          fk('jobs', 'organization_id', 'organizations', 'CASCADE'),
          fk('jobs', 'repository_id', 'repositories', 'CASCADE'),
          fk('jobs', 'check_id', 'checks', 'SET NULL'),
          fk('jobs', 'parent_job_id', 'jobs', 'SET NULL'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'job_events',
        columns: [
          { name: 'job_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'seq', type: 'integer', isPrimary: true },
          { name: 'type', type: 'varchar', length: '64' },
          datetimeColumn('at', { nullable: false }),
          { name: 'data', type: 'json' },
        ],
        foreignKeys: [fk('job_events', 'job_id', 'jobs', 'CASCADE')],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['job_events', 'jobs', 'checks', 'repositories']) await runner.dropTable(table);
  }
}
