import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Job } from './job.entity.js';

/**
 * A completed step of a job's durable workflow. Written in the same transaction as the step's events, findings and
 * artifact records, so a resumed workflow skips the step and never writes its outputs twice; the `(job_id, step)`
 * key makes a second writer of the same step (a worker whose lock expired while it ran) fail as a whole.
 */
@Entity({ name: 'job_checkpoints' })
export class JobCheckpoint {
  @PrimaryColumn({ name: 'job_id', type: 'varchar', length: 36 })
  jobId!: string;

  @ManyToOne(() => Job, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_job_checkpoints_job_id' })
  job?: Relation<Job>;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  step!: string;

  /** What later steps need from this one (JSON object). */
  @Column({ type: 'json' })
  result!: object;

  @Column({ name: 'completed_at', type: 'datetime', precision: 3 })
  completedAt!: Date;
}
