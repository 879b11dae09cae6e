import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The fencing token of a job's run (entity: job in src/store/entities/): each attempt that starts the run takes the
 * next number, and every write of the run checks it under the job's row lock, so an attempt that lost its queue lock
 * to a newer one writes nothing more.
 */
export class AddJobRunAttempt1763780000000 implements MigrationInterface {
  name = 'AddJobRunAttempt1763780000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('jobs', new TableColumn({ name: 'run_attempt', type: 'integer', default: 0 }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('jobs', 'run_attempt');
  }
}
