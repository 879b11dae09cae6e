import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

/** Durable receipts of signed webhook deliveries (entity: webhook-receipt in src/store/entities/). */
export class CreateWebhookReceipts1763815000000 implements MigrationInterface {
  name = 'CreateWebhookReceipts1763815000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'webhook_receipts',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'provider', type: 'varchar', length: '16' },
          { name: 'delivery_id', type: 'varchar', length: '100' },
          { name: 'event', type: 'varchar', length: '64' },
          { name: 'body_sha256', type: 'varchar', length: '64' },
          { name: 'payload', type: 'json' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          datetimeColumn('lease_expires_at', { nullable: true }),
          datetimeColumn('next_attempt_at', { nullable: true }),
          datetimeColumn('received_at', { nullable: false }),
          datetimeColumn('updated_at', { nullable: false }),
          datetimeColumn('completed_at', { nullable: true }),
        ],
        indices: [
          new TableIndex({ name: 'UQ_webhook_receipts_provider_delivery_id', columnNames: ['provider', 'delivery_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_webhook_receipts_status_next_attempt_at', columnNames: ['status', 'next_attempt_at'] }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('webhook_receipts');
  }
}
