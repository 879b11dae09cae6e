import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/** One onboarding of a repository revision: index, discover flows and edge cases, link coverage (its own issue). */
@Entity({ name: 'ingestion_runs' })
@Index('IDX_ingestion_runs_repository_id', ['repositoryId'])
export class IngestionRun {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_ingestion_runs_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_ingestion_runs_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** `queued`, `running`, `waiting` (live or AI execution paused), `succeeded` or `failed` (src/workflows/onboarding/status.ts). */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  /** The revision asked for; null: the default branch's head. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  revision!: string | null;

  /** The step the workflow is in (or ended in): fetch, index, discover, coverage, build. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  step!: string | null;

  /** The commit the fetch checked out, pinned at once: a fetch resumed after a crash checks out the same commit. */
  @Column({ name: 'commit_sha', type: 'varchar', length: 64, nullable: true })
  commitSha!: string | null;

  /** The fencing token: the latest attempt of the workflow; a write commits only while it holds the attempt's own. */
  @Column({ name: 'run_attempt', type: 'integer', default: 0 })
  runAttempt!: number;

  /** While `waiting`: the paused capability (`live` or `ai`). */
  @Column({ name: 'waiting_for', type: 'varchar', length: 16, nullable: true })
  waitingFor!: string | null;

  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true })
  errorCode!: string | null;

  @Column({ name: 'error_message', type: 'varchar', length: 1000, nullable: true })
  errorMessage!: string | null;

  /** What the steps found so far (src/workflows/onboarding/status.ts `IngestionCounts`). */
  @Column({ type: 'json', nullable: true })
  counts!: Record<string, number> | null;

  @Column({ name: 'started_at', type: 'datetime', precision: 3, nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, nullable: true })
  updatedAt!: Date | null;

  @Column({ name: 'workflow_id', type: 'varchar', length: 36, nullable: true })
  workflowId!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
