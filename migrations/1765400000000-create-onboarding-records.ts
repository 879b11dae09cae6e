import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

const fk = (table: string, column: string, referenced: string, onDelete: 'CASCADE' | 'SET NULL' = 'CASCADE') =>
  new TableForeignKey({ name: `FK_${table}_${column}`, columnNames: [column], referencedTableName: referenced, referencedColumnNames: ['id'], onDelete, onUpdate: 'NO ACTION' });

const id = (name: string, nullable = false) => ({ name, type: 'varchar', length: '36', isNullable: nullable });
const FLOW_KEY = { name: 'flow_key', type: 'varchar', length: '200' };

/**
 * The onboarding workflow's records (src/workflows/onboarding/): the ingestion run's progress (step, pinned commit,
 * fencing token, coded error, counts), its ordered events and step checkpoints; per repository the latest index (what a
 * re-index reuses by blob id), the flows with their edge cases and the coverage links; the catalog builds an ingestion
 * started (its bounds are counted on these rows); the ingestion a child job was built for; and the side-effect classes a
 * repository lets its catalog builds carry out.
 */
export class CreateOnboardingRecords1765400000000 implements MigrationInterface {
  name = 'CreateOnboardingRecords1765400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('repositories', new TableColumn({ name: 'allowed_side_effects', type: 'json', isNullable: true }));
    await runner.addColumns('ingestion_runs', [
      new TableColumn({ name: 'step', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'commit_sha', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'run_attempt', type: 'integer', default: 0 }),
      new TableColumn({ name: 'waiting_for', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'error_code', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'error_message', type: 'varchar', length: '1000', isNullable: true }),
      new TableColumn({ name: 'counts', type: 'json', isNullable: true }),
      new TableColumn(datetimeColumn('started_at', { nullable: true })),
      new TableColumn(datetimeColumn('finished_at', { nullable: true })),
      new TableColumn(datetimeColumn('updated_at', { nullable: true })),
    ]);
    await runner.createTable(
      new Table({
        name: 'ingestion_events',
        columns: [
          { ...id('ingestion_run_id'), isPrimary: true },
          { name: 'seq', type: 'integer', isPrimary: true },
          { name: 'type', type: 'varchar', length: '64' },
          datetimeColumn('at', { nullable: false }),
          { name: 'data', type: 'json' },
        ],
        foreignKeys: [fk('ingestion_events', 'ingestion_run_id', 'ingestion_runs')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'ingestion_checkpoints',
        columns: [
          { ...id('ingestion_run_id'), isPrimary: true },
          { name: 'step', type: 'varchar', length: '32', isPrimary: true },
          { name: 'result', type: 'json' },
          datetimeColumn('completed_at', { nullable: false }),
        ],
        foreignKeys: [fk('ingestion_checkpoints', 'ingestion_run_id', 'ingestion_runs')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'repository_indexes',
        columns: [
          { ...id('repository_id'), isPrimary: true },
          id('organization_id'),
          id('ingestion_run_id'),
          { name: 'commit_sha', type: 'varchar', length: '64' },
          { name: 'content', type: 'json' },
          datetimeColumn('updated_at', { nullable: false }),
        ],
        foreignKeys: [fk('repository_indexes', 'repository_id', 'repositories'), fk('repository_indexes', 'organization_id', 'organizations')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'repository_flows',
        columns: [
          { ...id('repository_id'), isPrimary: true },
          { ...FLOW_KEY, isPrimary: true },
          id('organization_id'),
          id('ingestion_run_id'),
          { name: 'flow', type: 'json' },
          datetimeColumn('updated_at', { nullable: false }),
        ],
        foreignKeys: [fk('repository_flows', 'repository_id', 'repositories'), fk('repository_flows', 'organization_id', 'organizations')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'coverage_links',
        columns: [
          { ...id('repository_id'), isPrimary: true },
          { ...FLOW_KEY, isPrimary: true },
          { ...id('check_id'), isPrimary: true },
          id('organization_id'),
          { name: 'reason', type: 'varchar', length: '64' },
          { name: 'source', type: 'varchar', length: '16' },
          datetimeColumn('created_at', { nullable: false }),
        ],
        indices: [new TableIndex({ name: 'IDX_coverage_links_check_id', columnNames: ['check_id'] })],
        foreignKeys: [
          fk('coverage_links', 'repository_id', 'repositories'),
          fk('coverage_links', 'check_id', 'checks'),
          fk('coverage_links', 'organization_id', 'organizations'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'catalog_builds',
        columns: [
          { ...id('ingestion_run_id'), isPrimary: true },
          { ...FLOW_KEY, isPrimary: true },
          id('organization_id'),
          id('repository_id'),
          id('job_id', true),
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'task', type: 'text' },
          { name: 'stops_before_effect', type: 'boolean', default: 0 },
          { name: 'outcome', type: 'varchar', length: '32', isNullable: true },
          datetimeColumn('created_at', { nullable: false }),
          datetimeColumn('finished_at', { nullable: true }),
        ],
        indices: [new TableIndex({ name: 'IDX_catalog_builds_job_id', columnNames: ['job_id'] })],
        foreignKeys: [
          fk('catalog_builds', 'ingestion_run_id', 'ingestion_runs'),
          fk('catalog_builds', 'job_id', 'jobs', 'SET NULL'),
        ],
      }),
    );
    await runner.addColumn('jobs', new TableColumn(id('ingestion_run_id', true)));
    await runner.createIndex('jobs', new TableIndex({ name: 'IDX_jobs_ingestion_run_id', columnNames: ['ingestion_run_id'] }));
    await runner.createForeignKey('jobs', fk('jobs', 'ingestion_run_id', 'ingestion_runs', 'SET NULL'));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropForeignKey('jobs', 'FK_jobs_ingestion_run_id');
    await runner.dropIndex('jobs', 'IDX_jobs_ingestion_run_id');
    await runner.dropColumn('jobs', 'ingestion_run_id');
    for (const table of ['catalog_builds', 'coverage_links', 'repository_flows', 'repository_indexes', 'ingestion_checkpoints', 'ingestion_events']) {
      await runner.dropTable(table);
    }
    for (const column of ['updated_at', 'finished_at', 'started_at', 'counts', 'error_message', 'error_code', 'waiting_for', 'run_attempt', 'commit_sha', 'step']) {
      await runner.dropColumn('ingestion_runs', column);
    }
    await runner.dropColumn('repositories', 'allowed_side_effects');
  }
}
