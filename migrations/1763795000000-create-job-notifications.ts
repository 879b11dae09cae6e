import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

/**
 * The notification outbox (entity: job-notification in src/store/entities/): one row per job that reports its
 * progress to a channel (a chat thread), written in the job's own transaction. It remembers the message that shows
 * the job, the last event index the message shows and whether the final state was delivered, so a delivery that
 * is retried, or rerun after a worker died, neither loses the final summary nor posts it twice.
 */
export class CreateJobNotifications1763795000000 implements MigrationInterface {
  name = 'CreateJobNotifications1763795000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'job_notifications',
        columns: [
          { name: 'job_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'channel', type: 'varchar', length: '16' },
          { name: 'thread_key', type: 'varchar', length: '200' },
          { name: 'context', type: 'json' },
          { name: 'message_handle', type: 'varchar', length: '128', isNullable: true },
          { name: 'delivered_seq', type: 'integer', default: -1 },
          { name: 'final_delivered', type: 'boolean', default: 0 },
          datetimeColumn('posting_since', { nullable: true }),
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          datetimeColumn('last_delivered_at', { nullable: true }),
          legacyCreateDateColumn(runner),
          datetimeColumn('updated_at', { nullable: false }),
        ],
        indices: [new TableIndex({ name: 'IDX_job_notifications_thread_key', columnNames: ['thread_key'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_job_notifications_job_id',
            columnNames: ['job_id'],
            referencedTableName: 'jobs',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('job_notifications');
  }
}
