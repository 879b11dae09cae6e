import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createDateColumn, datetimeColumn } from './support/columns.js';

const repositoryFk = (table: string) =>
  new TableForeignKey({
    name: `FK_${table}_repository_id`,
    columnNames: ['repository_id'],
    referencedTableName: 'repositories',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  });

/**
 * Pull requests replay a repository's checks (issue 14; entities: connected-repository, pull-request-head and
 * preview-deployment in src/store/entities/):
 * - `repositories.pull_request_settings`: preview template, waiting for deployments, drafts and forks; null means
 *   the defaults (src/core/pull-request-settings.ts), so existing repositories need no backfill.
 * - `pull_request_heads`: the newest head of each pull request as its events reported it, so an older event that
 *   arrives late starts no stale run, and a deployment finds the pull requests whose head it deployed.
 * - `preview_deployments`: successful deployments per repository, commit and environment, so a pull request event
 *   that arrives after its deployment finds the URL.
 */
export class AddPullRequestRuns1763927492731 implements MigrationInterface {
  name = 'AddPullRequestRuns1763927492731';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('repositories', new TableColumn({ name: 'pull_request_settings', type: 'json', isNullable: true }));
    await runner.createTable(
      new Table({
        name: 'pull_request_heads',
        columns: [
          { name: 'repository_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'pull_number', type: 'integer', isPrimary: true },
          { name: 'head_sha', type: 'varchar', length: '40' },
          datetimeColumn('event_updated_at', { nullable: false }),
          { name: 'draft', type: 'boolean' },
          { name: 'fork', type: 'boolean' },
          createDateColumn(runner),
        ],
        indices: [new TableIndex({ name: 'IDX_pull_request_heads_repository_id_head_sha', columnNames: ['repository_id', 'head_sha'] })],
        foreignKeys: [repositoryFk('pull_request_heads')],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'preview_deployments',
        columns: [
          { name: 'repository_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'sha', type: 'varchar', length: '40', isPrimary: true },
          { name: 'environment', type: 'varchar', length: '255', isPrimary: true },
          { name: 'url', type: 'varchar', length: '2048' },
          datetimeColumn('reported_at', { nullable: false }),
          createDateColumn(runner),
        ],
        foreignKeys: [repositoryFk('preview_deployments')],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('preview_deployments');
    await runner.dropTable('pull_request_heads');
    await runner.dropColumn('repositories', 'pull_request_settings');
  }
}
