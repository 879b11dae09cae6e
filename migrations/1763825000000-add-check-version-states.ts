import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

/**
 * Check version states (entity: check-version in src/store/entities/; the states: src/core/check.ts): a replay that
 * healed a step proposes a version, which a person accepts before it replays. Versions compiled before are
 * `compiled`.
 */
export class AddCheckVersionStates1763825000000 implements MigrationInterface {
  name = 'AddCheckVersionStates1763825000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumns('check_versions', [
      new TableColumn({ name: 'state', type: 'varchar', length: '16', default: "'compiled'" }),
      new TableColumn({ name: 'based_on', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'accepted_by', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn(datetimeColumn('accepted_at', { nullable: true })),
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('check_versions', 'accepted_at');
    await runner.dropColumn('check_versions', 'accepted_by');
    await runner.dropColumn('check_versions', 'based_on');
    await runner.dropColumn('check_versions', 'state');
  }
}
