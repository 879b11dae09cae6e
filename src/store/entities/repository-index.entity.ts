import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/** A repository's latest index: what the next re-index reuses, file by blob id. One row per repository. */
@Entity({ name: 'repository_indexes' })
export class RepositoryIndexRecord {
  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_repository_indexes_repository_id' })
  repository?: Relation<ConnectedRepository>;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_repository_indexes_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'ingestion_run_id', type: 'varchar', length: 36 })
  ingestionRunId!: string;

  @Column({ name: 'commit_sha', type: 'varchar', length: 64 })
  commitSha!: string;

  /** A `RepositoryIndex` (typed `object` so TypeORM's insert types accept its open `facts`). */
  @Column({ type: 'json' })
  content!: object;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
