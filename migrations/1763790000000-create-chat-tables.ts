import { Table, TableForeignKey, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

function foreignKey(table: string, column: string, referenced: string, onDelete: 'CASCADE' | 'SET NULL'): TableForeignKey {
  return new TableForeignKey({ name: `FK_${table}_${column}`, columnNames: [column], referencedTableName: referenced, referencedColumnNames: ['id'], onDelete, onUpdate: 'NO ACTION' });
}

/**
 * The chat bot's tables (entities: chat-workspace, chat-channel-binding, chat-event-receipt):
 * - `chat_workspaces`: a Slack workspace the app is in, with its bot token encrypted (OAuth installs) and the
 *   organization an administrator connected it to (none until then).
 * - `chat_channel_bindings`: the repository (and address) a channel checks by default (`@qa use owner/name`).
 * - `chat_event_receipts`: every delivery the bot took, under Slack's `event_id` (or a key derived from a trigger id):
 *   a retried delivery finds its key taken and starts nothing; the handling's decision and reply are kept so a rerun
 *   repeats neither.
 */
export class CreateChatTables1763790000000 implements MigrationInterface {
  name = 'CreateChatTables1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'chat_workspaces',
        columns: [
          { name: 'team_id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'team_name', type: 'varchar', length: '255', isNullable: true },
          { name: 'bot_user_id', type: 'varchar', length: '32', isNullable: true },
          { name: 'bot_token_ciphertext', type: 'text', isNullable: true },
          { name: 'installed_by', type: 'varchar', length: '32', isNullable: true },
          { name: 'source', type: 'varchar', length: '16' },
          legacyCreateDateColumn(runner),
          datetimeColumn('updated_at', { nullable: false }),
        ],
        foreignKeys: [foreignKey('chat_workspaces', 'organization_id', 'organizations', 'SET NULL')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'chat_channel_bindings',
        columns: [
          { name: 'team_id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'channel_id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'repository_id', type: 'varchar', length: '36' },
          { name: 'base_url', type: 'varchar', length: '2048', isNullable: true },
          { name: 'bound_by', type: 'varchar', length: '32' },
          datetimeColumn('updated_at', { nullable: false }),
        ],
        foreignKeys: [
          foreignKey('chat_channel_bindings', 'organization_id', 'organizations', 'CASCADE'),
          foreignKey('chat_channel_bindings', 'repository_id', 'repositories', 'CASCADE'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'chat_event_receipts',
        columns: [
          { name: 'event_id', type: 'varchar', length: '160', isPrimary: true },
          { name: 'team_id', type: 'varchar', length: '32' },
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'payload', type: 'json' },
          datetimeColumn('received_at', { nullable: false }),
          datetimeColumn('settled_at', { nullable: true }),
          { name: 'reply', type: 'json', isNullable: true },
          datetimeColumn('replied_at', { nullable: true }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('chat_event_receipts');
    await runner.dropTable('chat_channel_bindings');
    await runner.dropTable('chat_workspaces');
  }
}
