import type { MigrationInterface, QueryRunner, TableColumnOptions } from 'typeorm';
import { createDateColumn, legacyCreateDateColumn } from './support/columns.js';

/** Every table whose `created_at` an earlier migration made with `legacyCreateDateColumn`. */
const TABLES = [
  'organizations', 'api_keys', 'jobs', 'findings', 'artifacts', 'excluded_owners', 'installations', 'repositories',
  'ingestion_runs', 'checks', 'check_versions', 'schedules', 'chat_workspaces', 'job_notifications', 'check_disputes',
];

/**
 * `created_at` in milliseconds on both dialects (src/store/created-at.ts): SQLite kept whole seconds, so jobs, findings
 * and versions made within one second were listed in any order. Existing values keep their precision; the column's
 * type and default change. On SQLite TypeORM rebuilds each table (foreign keys are off while migrations run).
 */
export class MillisecondCreatedAt1763804000000 implements MigrationInterface {
  name = 'MillisecondCreatedAt1763804000000';

  async up(runner: QueryRunner): Promise<void> {
    await reshape(runner, createDateColumn(runner));
  }

  async down(runner: QueryRunner): Promise<void> {
    await reshape(runner, legacyCreateDateColumn(runner));
  }
}

async function reshape(runner: QueryRunner, shape: TableColumnOptions): Promise<void> {
  for (const name of TABLES) {
    const table = await runner.getTable(name);
    const oldColumn = table?.findColumnByName('created_at');
    if (!table || !oldColumn) throw new Error(`migration 1763804000000: ${name}.created_at is missing`);
    const newColumn = oldColumn.clone();
    newColumn.precision = shape.precision;
    newColumn.default = shape.default;
    await runner.changeColumn(table, oldColumn, newColumn);
  }
}
