import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Check } from './check.entity.js';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/**
 * A check that exercises a flow of its repository. `source`: `linked` (the coverage step matched the check's visited
 * routes and controls to the flow; replaced at each coverage step) or `built` (an onboarding's catalog build compiled
 * the check for the flow; kept).
 */
@Entity({ name: 'coverage_links' })
@Index('IDX_coverage_links_check_id', ['checkId'])
export class CoverageLinkRecord {
  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_coverage_links_repository_id' })
  repository?: Relation<ConnectedRepository>;

  @PrimaryColumn({ name: 'flow_key', type: 'varchar', length: 200 })
  flowKey!: string;

  @PrimaryColumn({ name: 'check_id', type: 'varchar', length: 36 })
  checkId!: string;

  @ManyToOne(() => Check, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'check_id', foreignKeyConstraintName: 'FK_coverage_links_check_id' })
  check?: Relation<Check>;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_coverage_links_organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'varchar', length: 64 })
  reason!: string;

  @Column({ type: 'varchar', length: 16 })
  source!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
