import { Table, TableColumn, TableForeignKey, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn } from './support/columns.js';

/**
 * Plans and compiled checks (entities: job and check-version in src/store/entities/): the plan a job runs, written
 * when it is interpreted, and each compiled version of a check.
 */
export class CreatePlansAndCheckVersions1763760000000 implements MigrationInterface {
  name = 'CreatePlansAndCheckVersions1763760000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('jobs', new TableColumn({ name: 'plan', type: 'json', isNullable: true }));
    await runner.createTable(
      new Table({
        name: 'check_versions',
        columns: [
          { name: 'check_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'version', type: 'integer', isPrimary: true },
          { name: 'compiled', type: 'json' },
          { name: 'source', type: 'text' },
          { name: 'job_id', type: 'varchar', length: '36', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_check_versions_check_id',
            columnNames: ['check_id'],
            referencedTableName: 'checks',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
          new TableForeignKey({
            name: 'FK_check_versions_job_id',
            columnNames: ['job_id'],
            referencedTableName: 'jobs',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('check_versions');
    await runner.dropColumn('jobs', 'plan');
  }
}
