import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

/**
 * Job creation made once per request that caused it (entities: job and chat-event-receipt in src/store/entities/):
 * - `jobs.source_key`: the key of what asked for the job (a chat delivery: `chat:<event id>`), unique within the
 *   organization, written in the transaction that inserts the job. A rerun of the same request (the `chat-event`
 *   queue job retried after a crash between creating the job and settling the delivery) finds its job instead of
 *   starting a second one. Null for jobs nobody will ask for twice (API, CLI, schedules); both MySQL and SQLite let
 *   a unique index hold any number of nulls.
 * - `chat_event_receipts.opening_ts`: the message a slash command opened its job's thread with, recorded before the
 *   job is created, so the rerun reuses it instead of posting a second opening; `opening_started_at`, written before
 *   that post, tells a rerun whose first run died between the post and the record to look for the message (by its
 *   metadata) before posting one.
 */
export class AddJobSourceKeys1763810000000 implements MigrationInterface {
  name = 'AddJobSourceKeys1763810000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('jobs', new TableColumn({ name: 'source_key', type: 'varchar', length: '200', isNullable: true }));
    await runner.createIndex('jobs', new TableIndex({ name: 'UQ_jobs_organization_id_source_key', columnNames: ['organization_id', 'source_key'], isUnique: true }));
    await runner.addColumns('chat_event_receipts', [
      new TableColumn({ name: 'opening_ts', type: 'varchar', length: '32', isNullable: true }),
      new TableColumn(datetimeColumn('opening_started_at', { nullable: true })),
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('chat_event_receipts', 'opening_started_at');
    await runner.dropColumn('chat_event_receipts', 'opening_ts');
    await runner.dropIndex('jobs', 'UQ_jobs_organization_id_source_key');
    await runner.dropColumn('jobs', 'source_key');
  }
}
