import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createDateColumn, datetimeColumn } from './support/columns.js';

/**
 * Code-host installations and their repositories as the code host reports them (entities: reported-installation and
 * reported-installation-repository in src/store/entities/). Apart from `installations`, which holds only the ones an
 * administrator connected to an organization.
 */
export class CreateReportedInstallations1763830000000 implements MigrationInterface {
  name = 'CreateReportedInstallations1763830000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'reported_installations',
        columns: [
          { name: 'provider', type: 'varchar', length: '32', isPrimary: true },
          { name: 'provider_installation_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'account_login', type: 'varchar', length: '100' },
          { name: 'account_type', type: 'varchar', length: '32' },
          { name: 'repository_selection', type: 'varchar', length: '16' },
          { name: 'status', type: 'varchar', length: '16' },
          datetimeColumn('reported_at', { nullable: false }),
          createDateColumn(runner),
          datetimeColumn('updated_at', { nullable: false }),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'reported_installation_repositories',
        columns: [
          { name: 'provider', type: 'varchar', length: '32', isPrimary: true },
          { name: 'provider_installation_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'repository_id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'full_name', type: 'varchar', length: '200' },
          { name: 'private', type: 'boolean' },
          { name: 'present', type: 'boolean' },
          datetimeColumn('reported_at', { nullable: false }),
          createDateColumn(runner),
          datetimeColumn('updated_at', { nullable: false }),
        ],
        indices: [new TableIndex({ name: 'IDX_reported_installation_repositories_full_name', columnNames: ['provider', 'full_name'] })],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('reported_installation_repositories');
    await runner.dropTable('reported_installations');
  }
}
