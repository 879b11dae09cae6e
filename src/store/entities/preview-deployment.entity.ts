import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';

/**
 * A successful deployment of a commit of a connected repository to an environment, as a `deployment_status` event
 * announced it: the address (`environment_url`, else `target_url`; http(s) without credentials) pull requests whose
 * head is that commit run against when their repository waits for deployments. The newest status (`reportedAt`) wins.
 */
@Entity({ name: 'preview_deployments' })
export class PreviewDeployment {
  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_preview_deployments_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** 40 lowercase hex characters. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  sha!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  environment!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** The status's own time (`deployment_status.updated_at`). */
  @Column({ name: 'reported_at', type: 'datetime', precision: 3 })
  reportedAt!: Date;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
