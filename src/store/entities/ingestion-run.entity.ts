import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/** One onboarding of a repository revision: index, discover flows and edge cases, link coverage (its own issue). */
@Entity({ name: 'ingestion_runs' })
@Index('IDX_ingestion_runs_repository_id', ['repositoryId'])
export class IngestionRun {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_ingestion_runs_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_ingestion_runs_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** `queued` until the onboarding workflow (its own issue) takes it. */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  revision!: string | null;

  @Column({ name: 'workflow_id', type: 'varchar', length: 36, nullable: true })
  workflowId!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
