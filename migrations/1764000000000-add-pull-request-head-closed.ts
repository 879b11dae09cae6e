import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `pull_request_heads.closed`: whether the newest event of the pull request closed it (merged or not). A successful
 * deployment of a closed pull request's head starts no runs; a newer `reopened` opens it again. Heads recorded before
 * this were open (a closed event recorded nothing then).
 */
export class AddPullRequestHeadClosed1764000000000 implements MigrationInterface {
  name = 'AddPullRequestHeadClosed1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('pull_request_heads', new TableColumn({ name: 'closed', type: 'boolean', default: 0 }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('pull_request_heads', 'closed');
  }
}
