import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn } from './support/columns.js';

/** Excluded code-host owners and connected installations (entities in src/store/entities/). */
export class CreateOwnerExclusionsAndInstallations1763730000000 implements MigrationInterface {
  name = 'CreateOwnerExclusionsAndInstallations1763730000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'excluded_owners',
        columns: [{ name: 'owner', type: 'varchar', length: '100', isPrimary: true }, legacyCreateDateColumn(runner)],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'installations',
        columns: [
          { name: 'provider', type: 'varchar', length: '32', isPrimary: true },
          { name: 'provider_installation_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          legacyCreateDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_installations_organization_id', columnNames: ['organization_id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_installations_organization_id',
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
    await runner.dropTable('installations');
    await runner.dropTable('excluded_owners');
  }
}
