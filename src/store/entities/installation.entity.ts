import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity.js';

/**
 * A code-host app installation an administrator connected to an organization (`qa installations connect` until the
 * dashboard exists). Only repositories of a connected installation are accepted for that organization.
 */
@Entity({ name: 'installations' })
@Index('IDX_installations_organization_id', ['organizationId'])
export class Installation {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  provider!: string;

  @PrimaryColumn({ name: 'provider_installation_id', type: 'varchar', length: 64 })
  providerInstallationId!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_installations_organization_id' })
  organization?: Relation<Organization>;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  /** Who connected it (`actorName`; null: the operator's CLI, or before 1765200000001). */
  @Column({ name: 'connected_by', type: 'varchar', length: 300, nullable: true })
  connectedBy!: string | null;
}
