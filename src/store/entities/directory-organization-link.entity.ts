import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DIRECTORY_ID_LENGTH } from './directory-columns.js';
import { Organization } from './organization.entity.js';

/**
 * An administrator's link of a directory organization to a service organization (`qa orgs link`). It may precede
 * the directory organization's first delivery, and it wins over the `external_id` link.
 */
@Entity({ name: 'directory_organization_links' })
@Index('IDX_directory_organization_links_organization_id', ['organizationId'])
export class DirectoryOrganizationLink {
  @PrimaryColumn({ name: 'directory_organization_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  directoryOrganizationId!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_directory_organization_links_organization_id' })
  organization?: Relation<Organization>;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
