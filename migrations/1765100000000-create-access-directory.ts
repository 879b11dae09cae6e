import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { createDateColumn, datetimeColumn } from './support/columns.js';

const ID = '100';

/** The event version and tombstone every directory row carries (src/store/entities/directory-columns.ts). */
function versionColumns(): TableColumnOptions[] {
  return [
    datetimeColumn('source_updated_at', { nullable: false }),
    datetimeColumn('delivery_created_at', { nullable: false }),
    { name: 'event_id', type: 'varchar', length: ID },
    datetimeColumn('deleted_at', { nullable: true }),
  ];
}

/**
 * The access directory the identity provider's webhooks keep (issue 26): users, organizations, memberships,
 * invitations and SSO connections, keyed by the provider's ids, plus administrators' links of directory
 * organizations to service organizations. No foreign keys between directory tables: deliveries arrive in any order.
 */
export class CreateAccessDirectory1765100000000 implements MigrationInterface {
  name = 'CreateAccessDirectory1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'directory_users',
        columns: [
          { name: 'id', type: 'varchar', length: ID, isPrimary: true },
          { name: 'email', type: 'varchar', length: '320', isNullable: true },
          { name: 'email_verified', type: 'boolean', default: 0 },
          { name: 'name', type: 'varchar', length: '255', isNullable: true },
          ...versionColumns(),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'directory_organizations',
        columns: [
          { name: 'id', type: 'varchar', length: ID, isPrimary: true },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'external_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'linked_organization_id', type: 'varchar', length: '36', isNullable: true },
          ...versionColumns(),
        ],
        indices: [new TableIndex({ name: 'IDX_directory_organizations_linked_organization_id', columnNames: ['linked_organization_id'] })],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'directory_organization_links',
        columns: [
          { name: 'directory_organization_id', type: 'varchar', length: ID, isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          createDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_directory_organization_links_organization_id', columnNames: ['organization_id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_directory_organization_links_organization_id',
            columnNames: ['organization_id'],
            referencedTableName: 'organizations',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'directory_memberships',
        columns: [
          { name: 'id', type: 'varchar', length: ID, isPrimary: true },
          { name: 'user_id', type: 'varchar', length: ID },
          { name: 'organization_id', type: 'varchar', length: ID },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'role', type: 'varchar', length: '16' },
          ...versionColumns(),
        ],
        indices: [
          new TableIndex({ name: 'IDX_directory_memberships_user_id', columnNames: ['user_id'] }),
          new TableIndex({ name: 'IDX_directory_memberships_organization_id', columnNames: ['organization_id'] }),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'directory_invitations',
        columns: [
          { name: 'id', type: 'varchar', length: ID, isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: ID, isNullable: true },
          { name: 'email', type: 'varchar', length: '320' },
          { name: 'state', type: 'varchar', length: '16' },
          datetimeColumn('expires_at', { nullable: true }),
          ...versionColumns(),
        ],
        indices: [new TableIndex({ name: 'IDX_directory_invitations_organization_id', columnNames: ['organization_id'] })],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'directory_connections',
        columns: [
          { name: 'id', type: 'varchar', length: ID, isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: ID },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'domains', type: 'json' },
          ...versionColumns(),
        ],
        indices: [new TableIndex({ name: 'IDX_directory_connections_organization_id', columnNames: ['organization_id'] })],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('directory_connections');
    await runner.dropTable('directory_invitations');
    await runner.dropTable('directory_memberships');
    await runner.dropTable('directory_organization_links');
    await runner.dropTable('directory_organizations');
    await runner.dropTable('directory_users');
  }
}
