import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What a failed expectation compared: `expected` and `actual` on a finding (entity: src/store/entities/finding.entity.ts;
 * the shape: src/core/findings.ts). Both null for every other finding, and for findings recorded before this.
 */
export class AddFindingComparison1763820000000 implements MigrationInterface {
  name = 'AddFindingComparison1763820000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumns('findings', [
      new TableColumn({ name: 'expected', type: 'text', isNullable: true }),
      new TableColumn({ name: 'actual', type: 'json', isNullable: true }),
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('findings', 'actual');
    await runner.dropColumn('findings', 'expected');
  }
}
