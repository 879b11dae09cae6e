import { Table, TableIndex, type QueryRunner } from 'typeorm';

/**
 * The jobs table, version 1. Written once with TypeORM's Table API so that it runs unchanged on MySQL 8,
 * MariaDB 10.6+ and SQLite. The project's migration and the backend's own `ensureSchema` both call these
 * functions, so a standalone user of the backend and the project's migrated database get the same table.
 * A later change to the table is a new versioned function here and a new migration, never an edit of v1.
 */

export const DEFAULT_TABLE_NAME = 'agenda_jobs';

/** Claim order: `next_run_at ASC, priority DESC`. The DESC key part lets the claim read stop at its first row. */
export const claimIndexName = (table: string): string => `IDX_${table}_claim`;
export const dedupeIndexName = (table: string): string => `UQ_${table}_dedupe_key`;
export const nextRunAtIndexName = (table: string): string => `IDX_${table}_next_run_at`;

const datetime = (name: string) => ({ name, type: 'datetime', precision: 3, isNullable: true });

export function agendaJobsTableV1(table: string): Table {
  return new Table({
    name: table,
    columns: [
      { name: 'id', type: 'varchar', length: '36', isPrimary: true },
      { name: 'name', type: 'varchar', length: '255' },
      { name: 'priority', type: 'integer', default: 0 },
      datetime('next_run_at'),
      { name: 'type', type: 'varchar', length: '10', default: "'normal'" },
      datetime('locked_at'),
      datetime('last_finished_at'),
      datetime('failed_at'),
      { name: 'fail_count', type: 'integer', isNullable: true },
      { name: 'fail_reason', type: 'text', isNullable: true },
      { name: 'repeat_timezone', type: 'varchar', length: '100', isNullable: true },
      datetime('last_run_at'),
      { name: 'repeat_interval', type: 'varchar', length: '255', isNullable: true },
      { name: 'data', type: 'json', isNullable: true },
      { name: 'repeat_at', type: 'varchar', length: '255', isNullable: true },
      { name: 'disabled', type: 'boolean', default: 0 },
      { name: 'progress', type: 'double', isNullable: true },
      { name: 'fork', type: 'boolean', default: 0 },
      { name: 'last_modified_by', type: 'varchar', length: '255', isNullable: true },
      datetime('debounce_started_at'),
      datetime('start_date'),
      datetime('end_date'),
      { name: 'skip_days', type: 'json', isNullable: true },
      // sha256 of the job's single/unique identity; the unique index makes upserts atomic (see dedupe-key.ts).
      { name: 'dedupe_key', type: 'varchar', length: '64', isNullable: true },
    ],
    indices: [
      new TableIndex({ name: dedupeIndexName(table), columnNames: ['dedupe_key'], isUnique: true }),
      new TableIndex({ name: nextRunAtIndexName(table), columnNames: ['next_run_at'] }),
    ],
  });
}

/**
 * The claim index carries a descending key part, which the Table API cannot express; the statement is the same
 * on MySQL 8, MariaDB 10.8+ and SQLite (older MariaDB parses DESC and builds an ascending part: still correct).
 */
export function claimIndexSql(table: string): string {
  return `CREATE INDEX ${claimIndexName(table)} ON ${table} (name, disabled, locked_at, next_run_at, priority DESC)`;
}

export async function createAgendaJobsTableV1(runner: QueryRunner, table: string): Promise<void> {
  await runner.createTable(agendaJobsTableV1(table), false);
  await runner.query(claimIndexSql(table));
}

export async function dropAgendaJobsTableV1(runner: QueryRunner, table: string): Promise<void> {
  await runner.dropTable(table, true);
}

/**
 * Creates the table when it is missing; used by `ensureSchema` for standalone users of the backend. Another
 * process may create it at the same moment: losing that race is fine once the table is there.
 */
export async function ensureAgendaJobsTable(runner: QueryRunner, table: string): Promise<void> {
  if (await runner.hasTable(table)) return;
  try {
    await createAgendaJobsTableV1(runner, table);
  } catch (error) {
    if (!(await runner.hasTable(table))) throw error;
  }
}

/** Table names go into SQL text, so they are checked against a strict pattern first. */
export function assertSafeTableName(table: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(table)) {
    throw new Error(`Invalid table name "${table}": use letters, digits and underscores (at most 64)`);
  }
  return table;
}
