import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

/** Operators' pauses of live and AI execution (entity: src/store/entities/execution-flag.entity.ts). */
export class CreateExecutionFlags1763720000000 implements MigrationInterface {
  name = 'CreateExecutionFlags1763720000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'execution_flags',
        columns: [
          { name: 'scope', type: 'varchar', length: '36', isPrimary: true },
          { name: 'capability', type: 'varchar', length: '16', isPrimary: true },
          { name: 'paused', type: 'boolean', default: 0 },
          datetimeColumn('updated_at', { nullable: false }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('execution_flags');
  }
}
