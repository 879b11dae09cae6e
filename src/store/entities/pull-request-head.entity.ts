import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';

/**
 * The newest head of a pull request of a connected repository, as its `pull_request` events reported it. An event
 * whose `pull_request.updated_at` is older than `eventUpdatedAt` arrived late and starts nothing; a successful
 * deployment of `headSha` starts the runs of the open pull requests whose head it is (`draft` and `fork` decide
 * whether they run, under the repository's settings at that time). A `closed` event is recorded the same way, so a
 * late event from before the close does not open it again, and a newer `reopened` does.
 */
@Entity({ name: 'pull_request_heads' })
@Index('IDX_pull_request_heads_repository_id_head_sha', ['repositoryId', 'headSha'])
export class PullRequestHead {
  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_pull_request_heads_repository_id' })
  repository?: Relation<ConnectedRepository>;

  @PrimaryColumn({ name: 'pull_number', type: 'integer' })
  pullNumber!: number;

  /** 40 lowercase hex characters. */
  @Column({ name: 'head_sha', type: 'varchar', length: 40 })
  headSha!: string;

  /** The reporting event's `pull_request.updated_at`. */
  @Column({ name: 'event_updated_at', type: 'datetime', precision: 3 })
  eventUpdatedAt!: Date;

  @Column({ type: 'boolean' })
  draft!: boolean;

  /** The head lives in another repository than the base (or in one since deleted). */
  @Column({ type: 'boolean' })
  fork!: boolean;

  /** The newest event closed the pull request (merged or not). */
  @Column({ type: 'boolean', default: false })
  closed!: boolean;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
