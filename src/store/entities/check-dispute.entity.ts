import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Check } from './check.entity.js';
import { Finding } from './finding.entity.js';
import { Job } from './job.entity.js';
import { Organization } from './organization.entity.js';

/**
 * A check's disputed failure: a finding of one of its runs that someone said is no bug, kept by the finding's
 * fingerprint (src/core/finding-disputes.ts), so the check's replays record the same failure as a warning. One row
 * per fingerprint: disputing the same failure again replaces who and why.
 */
@Entity({ name: 'check_disputes' })
@Index('UQ_check_disputes_check_id_fingerprint', ['checkId', 'fingerprint'], { unique: true })
export class CheckDispute {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'check_id', type: 'varchar', length: 36 })
  checkId!: string;

  @ManyToOne(() => Check, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'check_id', foreignKeyConstraintName: 'FK_check_disputes_check_id' })
  check?: Relation<Check>;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_check_disputes_organization_id' })
  organization?: Relation<Organization>;

  /** Lowercase hex SHA-256 of the finding's kind, step index and normalized title. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  /** What the fingerprint was taken from, for people reading the table. */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  @Column({ name: 'step_index', type: 'integer', nullable: true })
  stepIndex!: number | null;

  @Column({ type: 'varchar', length: 300 })
  title!: string;

  @Column({ name: 'disputed_by', type: 'varchar', length: 200 })
  disputedBy!: string;

  @Column({ type: 'varchar', length: 1000 })
  reason!: string;

  /** The job and finding last disputed under this fingerprint. */
  @Column({ name: 'job_id', type: 'varchar', length: 36, nullable: true })
  jobId!: string | null;

  @ManyToOne(() => Job, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_check_disputes_job_id' })
  job?: Relation<Job>;

  @Column({ name: 'finding_id', type: 'varchar', length: 36, nullable: true })
  findingId!: string | null;

  @ManyToOne(() => Finding, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'finding_id', foreignKeyConstraintName: 'FK_check_disputes_finding_id' })
  finding?: Relation<Finding>;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
