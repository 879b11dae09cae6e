import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Resolution } from '../../core/job.js';
import type { Plan } from '../../core/plan.js';
import { Check } from './check.entity.js';
import { ConnectedRepository } from './connected-repository.entity.js';
import { IngestionRun } from './ingestion-run.entity.js';
import { Organization } from './organization.entity.js';

/** A QA job (Set A) / run (Set B): one request to check something, and what became of it. */
@Entity({ name: 'jobs' })
@Index('IDX_jobs_organization_id', ['organizationId'])
@Index('IDX_jobs_parent_job_id', ['parentJobId'])
@Index('IDX_jobs_ingestion_run_id', ['ingestionRunId'])
// The jobs list (newest first, optionally by status or repository) and the updates stream: migration 1765300000000.
@Index('IDX_jobs_organization_created', ['organizationId', 'createdAt', 'id'])
@Index('IDX_jobs_organization_status_created', ['organizationId', 'status', 'createdAt', 'id'])
@Index('IDX_jobs_organization_repository_created', ['organizationId', 'repositoryId', 'createdAt', 'id'])
@Index('IDX_jobs_organization_updated', ['organizationId', 'updatedAt', 'id'])
@Index('UQ_jobs_organization_id_source_key', ['organizationId', 'sourceKey'], { unique: true })
export class Job {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_jobs_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_jobs_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** The check it replays or, for a natural-language job, the draft it created; null while it needs clarification. */
  @Column({ name: 'check_id', type: 'varchar', length: 36, nullable: true })
  checkId!: string | null;

  @ManyToOne(() => Check, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'check_id', foreignKeyConstraintName: 'FK_jobs_check_id' })
  check?: Relation<Check>;

  /** The job whose clarification questions this job answers. */
  @Column({ name: 'parent_job_id', type: 'varchar', length: 36, nullable: true })
  parentJobId!: string | null;

  @ManyToOne(() => Job, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'parent_job_id', foreignKeyConstraintName: 'FK_jobs_parent_job_id' })
  parent?: Relation<Job>;

  /** The onboarding that built this job's check (a catalog build, trigger `system`); null for every other job. */
  @Column({ name: 'ingestion_run_id', type: 'varchar', length: 36, nullable: true })
  ingestionRunId!: string | null;

  @ManyToOne(() => IngestionRun, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'ingestion_run_id', foreignKeyConstraintName: 'FK_jobs_ingestion_run_id' })
  ingestionRun?: Relation<IngestionRun>;

  @Column({ type: 'varchar', length: 32 })
  status!: string;

  @Column({ type: 'text', nullable: true })
  task!: string | null;

  @Column({ name: 'base_url', type: 'varchar', length: 2048 })
  baseUrl!: string;

  @Column({ name: 'commit_sha', type: 'varchar', length: 64, nullable: true })
  commitSha!: string | null;

  @Column({ type: 'varchar', length: 16 })
  trigger!: string;

  @Column({ name: 'network_allowlist', type: 'json' })
  networkAllowlist!: string[];

  @Column({ name: 'channel_context', type: 'json', nullable: true })
  channelContext!: object | null;

  @Column({ type: 'json', nullable: true })
  resolution!: Resolution | null;

  /** The plan the run follows, written when a natural-language task is interpreted; null for replays and reviews. */
  @Column({ type: 'json', nullable: true })
  plan!: Plan | null;

  /** The durable workflow's id (the queue job); null when none was started. */
  @Column({ name: 'workflow_id', type: 'varchar', length: 36, nullable: true })
  workflowId!: string | null;

  /**
   * The fencing token of the job's run: the number of the latest attempt that started it (0 before any). A write
   * of the run commits only while this still holds the attempt's own number.
   */
  @Column({ name: 'run_attempt', type: 'integer', default: 0 })
  runAttempt!: number;

  /** When a worker first took the job up; null until then. */
  @Column({ name: 'started_at', type: 'datetime', precision: 3, nullable: true })
  startedAt!: Date | null;

  /** When it reached passed, failed, errored or cancelled. */
  @Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })
  finishedAt!: Date | null;

  /**
   * The key of the request that created the job when that request may come again (a chat delivery:
   * `chat:<event id>`): unique within the organization, so the retried request finds this job instead of making a
   * second. Null for requests that are not retried (API, CLI, schedules).
   */
  @Column({ name: 'source_key', type: 'varchar', length: 200, nullable: true })
  sourceKey!: string | null;

  /** Who asked for the job (`actorName` of their principal: person or machine, never a secret); null before 1765200000001. */
  @Column({ name: 'started_by', type: 'varchar', length: 300, nullable: true })
  startedBy!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  /**
   * When the row was last written, by the writer's clock (every writer sets it: job-records, cancel-job,
   * run-recorder). The updates stream (GET /api/jobs/updates) reads rows changed after its cursor in (updated_at, id)
   * order. Not an `@UpdateDateColumn`: TypeORM's update builder would write `CURRENT_TIMESTAMP`, whole seconds.
   */
  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
