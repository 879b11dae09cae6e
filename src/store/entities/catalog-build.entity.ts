import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { IngestionRun } from './ingestion-run.entity.js';
import { Job } from './job.entity.js';

/**
 * One child catalog build of an onboarding: claimed (`building`, no job yet), then its job, then `built` or `failed`.
 * The onboarding's bounds (CATALOG_MAX_BUILDS, CATALOG_MAX_CONCURRENCY) are counted on these rows under the ingestion
 * run's row lock.
 */
@Entity({ name: 'catalog_builds' })
@Index('IDX_catalog_builds_job_id', ['jobId'])
export class CatalogBuild {
  @PrimaryColumn({ name: 'ingestion_run_id', type: 'varchar', length: 36 })
  ingestionRunId!: string;

  @ManyToOne(() => IngestionRun, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'ingestion_run_id', foreignKeyConstraintName: 'FK_catalog_builds_ingestion_run_id' })
  ingestionRun?: Relation<IngestionRun>;

  @PrimaryColumn({ name: 'flow_key', type: 'varchar', length: 200 })
  flowKey!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @Column({ name: 'job_id', type: 'varchar', length: 36, nullable: true })
  jobId!: string | null;

  @ManyToOne(() => Job, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_catalog_builds_job_id' })
  job?: Relation<Job>;

  /** `building`, `built`, `failed`. */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  /** The task the child job was given (the flow's, or its steps before the side effect). */
  @Column({ type: 'text' })
  task!: string;

  /** The flow's side effect is not allowed by the repository: the task stops before its last step. */
  @Column({ name: 'stops_before_effect', type: 'boolean', default: 0 })
  stopsBeforeEffect!: boolean;

  /** How the child ended: its job status (`passed`, `failed`, `review_required`…), or why no job was made. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  outcome!: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })
  finishedAt!: Date | null;
}
