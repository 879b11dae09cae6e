import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createAgendaJobsTableV1, dropAgendaJobsTableV1 } from '../src/queue/mysql-backend/schema.js';

/** The Agenda jobs table (version 1 of the backend's schema; see src/queue/mysql-backend/schema.ts). */
export class CreateAgendaJobs1763700000000 implements MigrationInterface {
  name = 'CreateAgendaJobs1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await createAgendaJobsTableV1(runner, 'agenda_jobs');
  }

  async down(runner: QueryRunner): Promise<void> {
    await dropAgendaJobsTableV1(runner, 'agenda_jobs');
  }
}
