import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';

/**
 * A push to a repository's default branch that re-indexes it, kept so the same commit is re-indexed once however
 * often or late its push is delivered (a redelivery under a new id, two workers at once), and so a push older than
 * one already taken starts nothing. A claim is `started` once the re-index was started; one never started (its
 * worker died) is taken over once `claimedAt` is older than the lease.
 */
@Entity({ name: 'default_branch_pushes' })
@Index('IDX_default_branch_pushes_repository_id_pushed_at', ['repositoryId', 'pushedAt'])
export class DefaultBranchPush {
  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_default_branch_pushes_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** The branch's new head, 40 lowercase hex characters. */
  @PrimaryColumn({ name: 'commit_sha', type: 'varchar', length: 40 })
  commitSha!: string;

  /** The code host's `repository.pushed_at`. */
  @Column({ name: 'pushed_at', type: 'datetime', precision: 3 })
  pushedAt!: Date;

  @Column({ type: 'boolean', default: false })
  started!: boolean;

  @Column({ name: 'claimed_at', type: 'datetime', precision: 3 })
  claimedAt!: Date;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
