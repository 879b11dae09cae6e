import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

/** The indexes of the jobs list and its updates stream (src/jobs/list-jobs.ts, src/jobs/job-updates.ts). */
const INDEXES = [
  // The list, newest first, keyset on (created_at, id): an index range scan of one page, whatever the table's size.
  new TableIndex({ name: 'IDX_jobs_organization_created', columnNames: ['organization_id', 'created_at', 'id'] }),
  // The same list filtered by status (the dashboard's "failed", "running").
  new TableIndex({ name: 'IDX_jobs_organization_status_created', columnNames: ['organization_id', 'status', 'created_at', 'id'] }),
  // … and by repository. Led by organization_id: an index led by repository_id would replace the foreign key's own,
  // and could then not be dropped by `down`.
  new TableIndex({ name: 'IDX_jobs_organization_repository_created', columnNames: ['organization_id', 'repository_id', 'created_at', 'id'] }),
  // The updates stream: the organization's rows changed after a cursor, in (updated_at, id) order.
  new TableIndex({ name: 'IDX_jobs_organization_updated', columnNames: ['organization_id', 'updated_at', 'id'] }),
];

/**
 * `jobs.updated_at`: when the row was last written (created, started, finished, cancelled, a run attempt taken), in
 * milliseconds, set by every writer of a job row; the updates stream (GET /api/jobs/updates) reads the rows changed
 * after its cursor. Existing rows take the latest time they recorded. Then the indexes that keep the jobs list and
 * that stream one index range per page with 100,000 jobs in an organization.
 */
export class AddJobListingIndexes1765300000000 implements MigrationInterface {
  name = 'AddJobListingIndexes1765300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('jobs', new TableColumn(datetimeColumn('updated_at', { nullable: true })));
    await runner.query('UPDATE jobs SET updated_at = COALESCE(finished_at, started_at, created_at)');
    const table = await runner.getTable('jobs');
    const column = table?.findColumnByName('updated_at');
    if (!table || !column) throw new Error('migration 1765300000000: jobs.updated_at is missing');
    const required = column.clone();
    required.isNullable = false;
    await runner.changeColumn(table, column, required);
    await runner.createIndices('jobs', INDEXES);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const index of [...INDEXES].reverse()) await runner.dropIndex('jobs', index.name!);
    await runner.dropColumn('jobs', 'updated_at');
  }
}
