import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { legacyCreateDateColumn, datetimeColumn } from './support/columns.js';

const fk = (table: string, column: string, referenced: string, onDelete: 'CASCADE' | 'SET NULL') =>
  new TableForeignKey({
    name: `FK_${table}_${column}`,
    columnNames: [column],
    referencedTableName: referenced,
    referencedColumnNames: ['id'],
    onDelete,
    onUpdate: 'NO ACTION',
  });

/** Schedules of check replays and the record of their fires (entities: schedule and schedule-fire in src/store/entities/). */
export class CreateSchedules1763770000000 implements MigrationInterface {
  name = 'CreateSchedules1763770000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'schedules',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'organization_id', type: 'varchar', length: '36' },
          { name: 'repository_id', type: 'varchar', length: '36' },
          { name: 'check_id', type: 'varchar', length: '36' },
          { name: 'naming_set', type: 'varchar', length: '1' },
          { name: 'cron', type: 'varchar', length: '120', isNullable: true },
          { name: 'interval_minutes', type: 'integer', isNullable: true },
          { name: 'timezone', type: 'varchar', length: '64' },
          { name: 'base_url', type: 'varchar', length: '2048' },
          { name: 'network_allowlist', type: 'json' },
          { name: 'enabled', type: 'boolean' },
          { name: 'queue_job_id', type: 'varchar', length: '36', isNullable: true },
          legacyCreateDateColumn(runner),
        ],
        indices: [
          new TableIndex({ name: 'IDX_schedules_organization_id', columnNames: ['organization_id'] }),
          new TableIndex({ name: 'IDX_schedules_check_id', columnNames: ['check_id'] }),
        ],
        foreignKeys: [
          fk('schedules', 'organization_id', 'organizations', 'CASCADE'),
          fk('schedules', 'repository_id', 'repositories', 'CASCADE'),
          fk('schedules', 'check_id', 'checks', 'CASCADE'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'schedule_fires',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'schedule_id', type: 'varchar', length: '36' },
          datetimeColumn('fired_at', { nullable: false }),
          { name: 'outcome', type: 'varchar', length: '16' },
          { name: 'job_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'IDX_schedule_fires_schedule_id_fired_at', columnNames: ['schedule_id', 'fired_at'] })],
        foreignKeys: [fk('schedule_fires', 'schedule_id', 'schedules', 'CASCADE'), fk('schedule_fires', 'job_id', 'jobs', 'SET NULL')],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('schedule_fires');
    await runner.dropTable('schedules');
  }
}
