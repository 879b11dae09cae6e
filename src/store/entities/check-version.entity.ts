import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { CheckVersionState, CompiledCheck } from '../../core/check.js';
import { Check } from './check.entity.js';
import { Job } from './job.entity.js';

/**
 * One compiled version of a check: the resolved steps a replay runs and the generated Playwright source. Steps and
 * source are immutable; a new passing run of the task makes the next version, and a replay that healed a step
 * proposes one (`state`, src/core/check.ts). No secret value is ever in either column.
 */
@Entity({ name: 'check_versions' })
export class CheckVersion {
  @PrimaryColumn({ name: 'check_id', type: 'varchar', length: 36 })
  checkId!: string;

  @ManyToOne(() => Check, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'check_id', foreignKeyConstraintName: 'FK_check_versions_check_id' })
  check?: Relation<Check>;

  /** 1, 2, … */
  @PrimaryColumn({ type: 'integer' })
  version!: number;

  @Column({ type: 'json' })
  compiled!: CompiledCheck;

  /** A `@playwright/test` file that checks the same thing (reads secrets from the environment by name). */
  @Column({ type: 'text' })
  source!: string;

  /** The passing job it was compiled from. */
  @Column({ name: 'job_id', type: 'varchar', length: 36, nullable: true })
  jobId!: string | null;

  @ManyToOne(() => Job, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_check_versions_job_id' })
  job?: Relation<Job>;

  /** `compiled`, `proposed`, `accepted` or `superseded`; the check's `version` says which one replays. */
  @Column({ type: 'varchar', length: 16, default: 'compiled' })
  state!: CheckVersionState;

  /** A proposal's: the version the healing replay ran. */
  @Column({ name: 'based_on', type: 'integer', nullable: true })
  basedOn!: number | null;

  /** Who accepted a proposal (`api_key:<id>`, `user:<id>`, …), and when. */
  @Column({ name: 'accepted_by', type: 'varchar', length: 200, nullable: true })
  acceptedBy!: string | null;

  @Column({ name: 'accepted_at', type: 'datetime', precision: 3, nullable: true })
  acceptedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
