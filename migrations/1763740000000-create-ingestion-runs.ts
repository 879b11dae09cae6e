import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn } from './support/columns.js';

const fk = (column: string, referenced: string) =>
  new TableForeignKey({
    name: `FK_ingestion_runs_${column}`,
    columnNames: [column],
    referencedTableName: referenced,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  });

/** Repository onboarding runs (entity: src/store/entities/ingestion-run.entity.ts). */
export class CreateIngestionRuns1763740000000 implements MigrationInterface {
  name = 'CreateIngestionRuns1763740000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'ingestion_runs',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'repository_id', type: 'varchar', length: '36' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'revision', type: 'varchar', length: '64', isNullable: true },
          { name: 'workflow_id', type: 'varchar', length: '36', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_ingestion_runs_repository_id', columnNames: ['repository_id'] })],
        foreignKeys: [fk('organization_id', 'organizations'), fk('repository_id', 'repositories')],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('ingestion_runs');
  }
}
