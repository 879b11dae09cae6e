import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

/** Tenants and their API keys (entities in src/store/entities/). */
export class CreateOrganizationsAndApiKeys1763690000000 implements MigrationInterface {
  name = 'CreateOrganizationsAndApiKeys1763690000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'organizations',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'slug', type: 'varchar', length: '64' },
          { name: 'name', type: 'varchar', length: '255' },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'UQ_organizations_slug', columnNames: ['slug'], isUnique: true })],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'prefix', type: 'varchar', length: '32' },
          { name: 'secret_hash', type: 'varchar', length: '64' },
          { name: 'label', type: 'varchar', length: '255', isNullable: true },
          legacyCreateDateColumn(runner),
          datetimeColumn('last_used_at', { nullable: true }),
          datetimeColumn('revoked_at', { nullable: true }),
        ],
        indices: [
          new TableIndex({ name: 'IDX_api_keys_organization_id', columnNames: ['organization_id'] }),
          new TableIndex({ name: 'UQ_api_keys_prefix', columnNames: ['prefix'], isUnique: true }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_api_keys_organization_id',
            columnNames: ['organization_id'],
            referencedTableName: 'organizations',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('api_keys');
    await runner.dropTable('organizations');
  }
}
