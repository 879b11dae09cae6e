import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Job } from './job.entity.js';

/**
 * The outbox of a job whose progress goes to a channel (a chat thread): written with the job, then advanced by each
 * delivery. `deliveredSeq` is the last event index the channel's message shows; `finalDelivered` says the finished
 * state was delivered, so nothing is sent again. `postingSince` is set just before a first post and cleared with
 * the handle it returned: a delivery that finds it set looks for a message a dead worker posted before posting one.
 */
@Entity({ name: 'job_notifications' })
@Index('IDX_job_notifications_thread_key', ['threadKey'])
export class JobNotification {
  @PrimaryColumn({ name: 'job_id', type: 'varchar', length: 36 })
  jobId!: string;

  @ManyToOne(() => Job, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_job_notifications_job_id' })
  job?: Relation<Job>;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  /** The channel kind (`chat`); the job's channelContext says where in it. */
  @Column({ type: 'varchar', length: 16 })
  channel!: string;

  /** The conversation the job belongs to, e.g. `slack:T1:C1:1700000000.000100`: the bot finds a thread's jobs by it. */
  @Column({ name: 'thread_key', type: 'varchar', length: 200 })
  threadKey!: string;

  /** The job's channelContext, as it was when the job was created. */
  @Column({ type: 'json' })
  context!: object;

  /** The channel's id of the message that shows the job (Slack: its `ts`); null until it is posted. */
  @Column({ name: 'message_handle', type: 'varchar', length: 128, nullable: true })
  messageHandle!: string | null;

  @Column({ name: 'delivered_seq', type: 'integer', default: -1 })
  deliveredSeq!: number;

  @Column({ name: 'final_delivered', type: 'boolean', default: false })
  finalDelivered!: boolean;

  @Column({ name: 'posting_since', type: 'datetime', precision: 3, nullable: true })
  postingSince!: Date | null;

  /** Failed deliveries since the last one that succeeded. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError!: string | null;

  @Column({ name: 'last_delivered_at', type: 'datetime', precision: 3, nullable: true })
  lastDeliveredAt!: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
