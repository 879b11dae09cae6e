import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

const jobFk = (table: string) =>
  new TableForeignKey({
    name: `FK_${table}_job_id`,
    columnNames: ['job_id'],
    referencedTableName: 'jobs',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  });

/**
 * What a browser run keeps: artifacts, findings, workflow checkpoints, and when the job started and finished
 * (entities: artifact, finding, job-checkpoint and job in src/store/entities/).
 */
export class CreateRunRecords1763750000000 implements MigrationInterface {
  name = 'CreateRunRecords1763750000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumns('jobs', [
      new TableColumn(datetimeColumn('started_at', { nullable: true })),
      new TableColumn(datetimeColumn('finished_at', { nullable: true })),
    ]);
    await runner.createTable(
      new Table({
        name: 'artifacts',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'job_id', type: 'varchar', length: '36' },
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'name', type: 'varchar', length: '128' },
          { name: 'content_type', type: 'varchar', length: '128' },
          { name: 'size_bytes', type: 'integer' },
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'storage_key', type: 'varchar', length: '512' },
          { name: 'step_index', type: 'integer', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_artifacts_job_id', columnNames: ['job_id'] })],
        foreignKeys: [jobFk('artifacts')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'findings',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'job_id', type: 'varchar', length: '36' },
          { name: 'position', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'severity', type: 'varchar', length: '16' },
          { name: 'title', type: 'varchar', length: '300' },
          { name: 'detail', type: 'text' },
          { name: 'step_index', type: 'integer', isNullable: true },
          { name: 'artifact_ids', type: 'json' },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'UQ_findings_job_id_position', columnNames: ['job_id', 'position'], isUnique: true })],
        foreignKeys: [jobFk('findings')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'job_checkpoints',
        columns: [
          { name: 'job_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'step', type: 'varchar', length: '64', isPrimary: true },
          { name: 'result', type: 'json' },
          datetimeColumn('completed_at', { nullable: false }),
        ],
        foreignKeys: [jobFk('job_checkpoints')],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('job_checkpoints');
    await runner.dropTable('findings');
    await runner.dropTable('artifacts');
    await runner.dropColumn('jobs', 'finished_at');
    await runner.dropColumn('jobs', 'started_at');
  }
}
