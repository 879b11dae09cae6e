import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Check } from './check.entity.js';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/**
 * A schedule that replays a compiled check (`POST /api/schedules`): on a 5-field cron expression or every
 * `intervalMinutes`, in `timezone`. Exactly one of `cron` and `intervalMinutes` is set. Its queue side is one
 * Agenda repeat job (`schedule-fire`, unique by schedule id) whose runs create jobs with trigger `schedule`.
 */
@Entity({ name: 'schedules' })
@Index('IDX_schedules_organization_id', ['organizationId'])
@Index('IDX_schedules_check_id', ['checkId'])
export class Schedule {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_schedules_organization_id' })
  organization?: Relation<Organization>;

  /** The check's repository (the replay's `projectId`/`repositoryId`). */
  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_schedules_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** A deleted check takes its schedules with it. */
  @Column({ name: 'check_id', type: 'varchar', length: 36 })
  checkId!: string;

  @ManyToOne(() => Check, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'check_id', foreignKeyConstraintName: 'FK_schedules_check_id' })
  check?: Relation<Check>;

  /** The naming set it was created in (`A`: testId, jobId; `B`: scenarioId, runId); its answers use the same. */
  @Column({ name: 'naming_set', type: 'varchar', length: 1 })
  namingSet!: 'A' | 'B';

  /** A 5-field cron expression, normalized (single spaces); null for an interval schedule. */
  @Column({ type: 'varchar', length: 120, nullable: true })
  cron!: string | null;

  /** Minutes between runs (5–10080); null for a cron schedule. */
  @Column({ name: 'interval_minutes', type: 'integer', nullable: true })
  intervalMinutes!: number | null;

  /** A canonical IANA zone name; the cron expression is read in it. */
  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  @Column({ name: 'base_url', type: 'varchar', length: 2048 })
  baseUrl!: string;

  @Column({ name: 'network_allowlist', type: 'json' })
  networkAllowlist!: string[];

  /** A disabled schedule keeps its repeat job, disabled (no runs). */
  @Column({ type: 'boolean' })
  enabled!: boolean;

  /** The Agenda repeat job's id, once it is saved (read for `nextRunAt`). */
  @Column({ name: 'queue_job_id', type: 'varchar', length: 36, nullable: true })
  queueJobId!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
