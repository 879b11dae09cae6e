import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Job } from './job.entity.js';

/** A finding (Set A) / report (Set B) of a run. `(job_id, position)` orders them and keeps a replayed step from repeating one. */
@Entity({ name: 'findings' })
@Index('UQ_findings_job_id_position', ['jobId', 'position'], { unique: true })
export class Finding {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @Column({ name: 'job_id', type: 'varchar', length: 36 })
  jobId!: string;

  @ManyToOne(() => Job, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_findings_job_id' })
  job?: Relation<Job>;

  /** 0, 1, 2, … per job, in the order the run found them. */
  @Column({ type: 'integer' })
  position!: number;

  /** One of FINDING_KINDS (src/core/findings.ts). */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  /** `error` (fails the run) or `warning`. */
  @Column({ type: 'varchar', length: 16 })
  severity!: string;

  @Column({ type: 'varchar', length: 300 })
  title!: string;

  @Column({ type: 'text' })
  detail!: string;

  @Column({ name: 'step_index', type: 'integer', nullable: true })
  stepIndex!: number | null;

  /** A failed expectation: what it expected (a text, a title, a value, "3 items", a state); null otherwise. */
  @Column({ type: 'text', nullable: true })
  expected!: string | null;

  /** What the page showed instead, the nearest candidates first (src/core/findings.ts); null with `expected`. */
  @Column({ type: 'json', nullable: true })
  actual!: string[] | null;

  /** Ids of the artifacts that show it (a screenshot of the moment, the trace). */
  @Column({ name: 'artifact_ids', type: 'json' })
  artifactIds!: string[];

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  /** Set when someone said it is no bug ("not a bug: <reason>"); disputing again replaces all three. */
  @Column({ name: 'disputed_at', type: 'datetime', precision: 3, nullable: true })
  disputedAt!: Date | null;

  @Column({ name: 'disputed_by', type: 'varchar', length: 200, nullable: true })
  disputedBy!: string | null;

  @Column({ name: 'dispute_reason', type: 'varchar', length: 1000, nullable: true })
  disputeReason!: string | null;
}
