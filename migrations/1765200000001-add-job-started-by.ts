import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `jobs.started_by`: who asked for the job, as `actorName` writes it (`user:<directory id>`, `api_key:<key id>`,
 * `schedule:<id>`, `slack:<team>:<user>`, `codehost:<installation>[:<login>]`), never a secret. Null for jobs made
 * before it was recorded.
 */
export class AddJobStartedBy1765200000001 implements MigrationInterface {
  name = 'AddJobStartedBy1765200000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('jobs', new TableColumn({ name: 'started_by', type: 'varchar', length: '300', isNullable: true }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('jobs', 'started_by');
  }
}
