import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { datetimeColumn } from './support/columns.js';

/**
 * People's sign-in sessions and the sign-ins under way (entities: session and sign-in-attempt in
 * src/store/entities/). Both are keyed by the SHA-256 of a random cookie value: the store never holds a value that
 * would let its reader act as someone.
 */
export class CreateSessions1765200000000 implements MigrationInterface {
  name = 'CreateSessions1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '255' },
          { name: 'organization_id', type: 'varchar', length: '36', isNullable: true },
          datetimeColumn('created_at', { nullable: false }),
          datetimeColumn('last_seen_at', { nullable: false }),
          datetimeColumn('expires_at', { nullable: false }),
        ],
        indices: [
          new TableIndex({ name: 'IDX_sessions_user_id', columnNames: ['user_id'] }),
          new TableIndex({ name: 'IDX_sessions_expires_at', columnNames: ['expires_at'] }),
          new TableIndex({ name: 'IDX_sessions_last_seen_at', columnNames: ['last_seen_at'] }),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'sign_in_attempts',
        columns: [
          { name: 'id_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'state', type: 'varchar', length: '128' },
          { name: 'nonce', type: 'varchar', length: '128' },
          { name: 'code_verifier', type: 'varchar', length: '128' },
          { name: 'return_to', type: 'varchar', length: '2048' },
          datetimeColumn('expires_at', { nullable: false }),
        ],
        indices: [new TableIndex({ name: 'IDX_sign_in_attempts_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('sign_in_attempts');
    await runner.dropTable('sessions');
  }
}
