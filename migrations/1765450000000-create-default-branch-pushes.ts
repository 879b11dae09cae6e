import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createDateColumn, datetimeColumn } from './support/columns.js';

/**
 * `default_branch_pushes` (entity: src/store/entities/default-branch-push.entity.ts): the pushes to a repository's
 * default branch that re-index it, one row per commit, so duplicated and reordered deliveries start one re-index of a
 * commit and none of an older one (issue 28).
 */
export class CreateDefaultBranchPushes1765450000000 implements MigrationInterface {
  name = 'CreateDefaultBranchPushes1765450000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'default_branch_pushes',
        columns: [
          { name: 'repository_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'commit_sha', type: 'varchar', length: '40', isPrimary: true },
          datetimeColumn('pushed_at', { nullable: false }),
          { name: 'started', type: 'boolean', default: 0 },
          datetimeColumn('claimed_at', { nullable: false }),
          createDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_default_branch_pushes_repository_id_pushed_at', columnNames: ['repository_id', 'pushed_at'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_default_branch_pushes_repository_id',
            columnNames: ['repository_id'],
            referencedTableName: 'repositories',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('default_branch_pushes');
  }
}
