import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/** A flow of a repository as the latest discovery found it (with its edge cases), by its key, stable across revisions. */
@Entity({ name: 'repository_flows' })
export class RepositoryFlow {
  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_repository_flows_repository_id' })
  repository?: Relation<ConnectedRepository>;

  @PrimaryColumn({ name: 'flow_key', type: 'varchar', length: 200 })
  flowKey!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_repository_flows_organization_id' })
  organization?: Relation<Organization>;

  /** The discovery that found it last. */
  @Column({ name: 'ingestion_run_id', type: 'varchar', length: 36 })
  ingestionRunId!: string;

  /** A `DiscoveredFlow` (src/onboarding/model.ts), as discovery returned it. */
  @Column({ type: 'json' })
  flow!: object;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
