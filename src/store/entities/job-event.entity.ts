import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Job } from './job.entity.js';

/**
 * One entry of a job's ordered history. `(job_id, seq)` is the primary key, so an event is written once even when a
 * resumed workflow replays a step: the second insert of the same index fails instead of duplicating it.
 */
@Entity({ name: 'job_events' })
export class JobEvent {
  @PrimaryColumn({ name: 'job_id', type: 'varchar', length: 36 })
  jobId!: string;

  @ManyToOne(() => Job, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_job_events_job_id' })
  job?: Relation<Job>;

  /** 0, 1, 2, … per job: the `index` of the event stream. */
  @PrimaryColumn({ type: 'integer' })
  seq!: number;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  @Column({ type: 'datetime', precision: 3 })
  at!: Date;

  /** A JSON object (typed `object` so TypeORM's insert types accept any shape). */
  @Column({ type: 'json' })
  data!: object;
}
