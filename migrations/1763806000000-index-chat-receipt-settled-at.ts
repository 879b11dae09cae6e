import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The periodic purge of settled chat receipts (src/jobs/chat/chat-inbox.ts `purgeSettledChatReceipts`) takes the oldest
 * settled receipts in small batches; without an index on `settled_at` each batch would read the whole table, which is
 * exactly the table that grew too large.
 */
export class IndexChatReceiptSettledAt1763806000000 implements MigrationInterface {
  name = 'IndexChatReceiptSettledAt1763806000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createIndex('chat_event_receipts', new TableIndex({ name: 'IDX_chat_event_receipts_settled_at', columnNames: ['settled_at'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('chat_event_receipts', 'IDX_chat_event_receipts_settled_at');
  }
}
