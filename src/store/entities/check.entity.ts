import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/**
 * A check (Set A `testId`) / scenario (Set B `scenarioId`). A natural-language job creates a `draft`; a passing run
 * compiles it into version 1 (the browser issue).
 */
@Entity({ name: 'checks' })
@Index('IDX_checks_organization_id', ['organizationId'])
@Index('IDX_checks_repository_id', ['repositoryId'])
export class Check {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_checks_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_checks_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** `draft` until a passing run compiles it; then `active`. */
  @Column({ type: 'varchar', length: 16 })
  status!: 'draft' | 'active';

  /** The natural-language task the check came from. */
  @Column({ type: 'text' })
  task!: string;

  /** 0 for a draft; 1, 2, … for compiled versions. */
  @Column({ type: 'integer', default: 0 })
  version!: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
