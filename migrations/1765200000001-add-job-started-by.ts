import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Who did what, as `actorName` writes it (person or machine, never a secret): `jobs.started_by`, `api_keys.created_by`
 * and `revoked_by`, `execution_flags.updated_by`, `installations.connected_by`. Null for rows from before it was recorded (and for the CLI's
 * operator verbs, which act as nobody in particular).
 *
 * `jobs.started_by`: who asked for the job, as `actorName` writes it (`user:<directory id>`, `api_key:<key id>`,
 * `schedule:<id>`, `slack:<team>:<user>`, `codehost:<installation>[:<login>]`), never a secret. Null for jobs made
 * before it was recorded.
 */
export class AddJobStartedBy1765200000001 implements MigrationInterface {
  name = 'AddJobStartedBy1765200000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('jobs', new TableColumn({ name: 'started_by', type: 'varchar', length: '300', isNullable: true }));
    await runner.addColumns('api_keys', [
      new TableColumn({ name: 'created_by', type: 'varchar', length: '300', isNullable: true }),
      new TableColumn({ name: 'revoked_by', type: 'varchar', length: '300', isNullable: true }),
    ]);
    await runner.addColumn('execution_flags', new TableColumn({ name: 'updated_by', type: 'varchar', length: '300', isNullable: true }));
    await runner.addColumn('installations', new TableColumn({ name: 'connected_by', type: 'varchar', length: '300', isNullable: true }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('installations', 'connected_by');
    await runner.dropColumn('execution_flags', 'updated_by');
    await runner.dropColumn('api_keys', 'revoked_by');
    await runner.dropColumn('api_keys', 'created_by');
    await runner.dropColumn('jobs', 'started_by');
  }
}
