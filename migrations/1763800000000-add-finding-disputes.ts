import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

const fk = (column: string, referenced: string, onDelete: 'CASCADE' | 'SET NULL') =>
  new TableForeignKey({
    name: `FK_check_disputes_${column}`,
    columnNames: [column],
    referencedTableName: referenced,
    referencedColumnNames: ['id'],
    onDelete,
    onUpdate: 'NO ACTION',
  });

/**
 * Disputes ("not a bug"): who disputed a finding and why, on the finding, and per check by the finding's fingerprint,
 * so the check's later replays record the same failure as a warning (entities: finding and check-dispute in
 * src/store/entities/; the rules: src/core/finding-disputes.ts).
 */
export class AddFindingDisputes1763800000000 implements MigrationInterface {
  name = 'AddFindingDisputes1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumns('findings', [
      new TableColumn(datetimeColumn('disputed_at', { nullable: true })),
      new TableColumn({ name: 'disputed_by', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'dispute_reason', type: 'varchar', length: '1000', isNullable: true }),
    ]);
    await runner.createTable(
      new Table({
        name: 'check_disputes',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'check_id', type: 'varchar', length: '36' },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'step_index', type: 'integer', isNullable: true },
          { name: 'title', type: 'varchar', length: '300' },
          { name: 'disputed_by', type: 'varchar', length: '200' },
          { name: 'reason', type: 'varchar', length: '1000' },
          { name: 'job_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'finding_id', type: 'varchar', length: '36', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'UQ_check_disputes_check_id_fingerprint', columnNames: ['check_id', 'fingerprint'], isUnique: true })],
        foreignKeys: [
          fk('check_id', 'checks', 'CASCADE'),
          fk('organization_id', 'organizations', 'CASCADE'),
          fk('job_id', 'jobs', 'SET NULL'),
          fk('finding_id', 'findings', 'SET NULL'),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('check_disputes');
    await runner.dropColumn('findings', 'dispute_reason');
    await runner.dropColumn('findings', 'disputed_by');
    await runner.dropColumn('findings', 'disputed_at');
  }
}
