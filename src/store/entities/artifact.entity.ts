import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Job } from './job.entity.js';

/**
 * What a run kept: a screenshot, a trace, a log. The bytes live in artifact storage under `storageKey`, which never
 * leaves the service; clients see the metadata and download through the API by id.
 */
@Entity({ name: 'artifacts' })
@Index('IDX_artifacts_job_id', ['jobId'])
export class Artifact {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @Column({ name: 'job_id', type: 'varchar', length: 36 })
  jobId!: string;

  @ManyToOne(() => Job, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'job_id', foreignKeyConstraintName: 'FK_artifacts_job_id' })
  job?: Relation<Job>;

  /** `screenshot`, `trace`, `console_log`, `network_log`, `accessibility_snapshot`. */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  /** A file name for downloads, e.g. `screenshot-page.png`. */
  @Column({ type: 'varchar', length: 128 })
  name!: string;

  @Column({ name: 'content_type', type: 'varchar', length: 128 })
  contentType!: string;

  @Column({ name: 'size_bytes', type: 'integer' })
  sizeBytes!: number;

  @Column({ type: 'varchar', length: 64 })
  sha256!: string;

  /** Private: where the bytes are in artifact storage. Never serialised into a response. */
  @Column({ name: 'storage_key', type: 'varchar', length: 512 })
  storageKey!: string;

  @Column({ name: 'step_index', type: 'integer', nullable: true })
  stepIndex!: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
