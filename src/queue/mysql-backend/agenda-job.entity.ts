import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Mirror of the `agenda_jobs` table (schema.ts) for TypeORM's schema-drift check and for read-only inspection.
 * The backend itself reads and writes the table with hand-written SQL: the claim path needs
 * `FOR UPDATE SKIP LOCKED` and upserts that TypeORM's query builder does not express portably.
 */
@Entity({ name: 'agenda_jobs' })
@Index('IDX_agenda_jobs_claim', ['name', 'disabled', 'lockedAt', 'nextRunAt', 'priority'])
@Index('IDX_agenda_jobs_next_run_at', ['nextRunAt'])
@Index('UQ_agenda_jobs_dedupe_key', ['dedupeKey'], { unique: true })
export class AgendaJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'int', default: 0 })
  priority!: number;

  @Column({ name: 'next_run_at', type: 'datetime', precision: 3, nullable: true })
  nextRunAt!: Date | null;

  @Column({ type: 'varchar', length: 10, default: 'normal' })
  type!: string;

  @Column({ name: 'locked_at', type: 'datetime', precision: 3, nullable: true })
  lockedAt!: Date | null;

  @Column({ name: 'last_finished_at', type: 'datetime', precision: 3, nullable: true })
  lastFinishedAt!: Date | null;

  @Column({ name: 'failed_at', type: 'datetime', precision: 3, nullable: true })
  failedAt!: Date | null;

  @Column({ name: 'fail_count', type: 'int', nullable: true })
  failCount!: number | null;

  @Column({ name: 'fail_reason', type: 'text', nullable: true })
  failReason!: string | null;

  @Column({ name: 'repeat_timezone', type: 'varchar', length: 100, nullable: true })
  repeatTimezone!: string | null;

  @Column({ name: 'last_run_at', type: 'datetime', precision: 3, nullable: true })
  lastRunAt!: Date | null;

  @Column({ name: 'repeat_interval', type: 'varchar', length: 255, nullable: true })
  repeatInterval!: string | null;

  @Column({ type: 'json', nullable: true })
  data!: unknown;

  @Column({ name: 'repeat_at', type: 'varchar', length: 255, nullable: true })
  repeatAt!: string | null;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ type: 'double', nullable: true })
  progress!: number | null;

  @Column({ type: 'boolean', default: false })
  fork!: boolean;

  @Column({ name: 'last_modified_by', type: 'varchar', length: 255, nullable: true })
  lastModifiedBy!: string | null;

  @Column({ name: 'debounce_started_at', type: 'datetime', precision: 3, nullable: true })
  debounceStartedAt!: Date | null;

  @Column({ name: 'start_date', type: 'datetime', precision: 3, nullable: true })
  startDate!: Date | null;

  @Column({ name: 'end_date', type: 'datetime', precision: 3, nullable: true })
  endDate!: Date | null;

  @Column({ name: 'skip_days', type: 'json', nullable: true })
  skipDays!: number[] | null;

  @Column({ name: 'dedupe_key', type: 'varchar', length: 64, nullable: true })
  dedupeKey!: string | null;
}
