import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Job } from './job.entity.js';
import { Schedule } from './schedule.entity.js';

/** What one fire of a schedule led to. */
export const SCHEDULE_FIRE_OUTCOMES = ['queued', 'skipped', 'failed'] as const;
export type ScheduleFireOutcome = (typeof SCHEDULE_FIRE_OUTCOMES)[number];

/**
 * One fire of a schedule: `queued` (a replay job was created), `skipped` (live execution was paused, so no job was
 * created) or `failed` (no replay could be created, or its workflow could not be started; `reason` says why).
 */
@Entity({ name: 'schedule_fires' })
@Index('IDX_schedule_fires_schedule_id_fired_at', ['scheduleId', 'firedAt'])
export class ScheduleFire {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'schedule_id', type: 'varchar', length: 36 })
  scheduleId!: string;

  @ManyToOne(() => Schedule, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'schedule_id', foreignKeyConstraintName: 'FK_schedule_fires_schedule_id' })
  schedule?: Relation<Schedule>;

  @Column({ name: 'fired_at', type: 'datetime', precision: 3 })
  firedAt!: Date;

  @Column({ type: 'varchar', length: 16 })
  outcome!: ScheduleFireOutcome;

  /** The replay job it created (also for `failed` when the job exists but its workflow did not start). */
  @Column({ name: 'job_id', type: 'varchar', length: 36, nullable: true })
  jobId!: string | null;

  @ManyToOne(() => Job, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_schedule_fires_job_id' })
  job?: Relation<Job>;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason!: string | null;
}
