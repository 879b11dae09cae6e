import { Column, Entity, Index } from 'typeorm';
import { DirectoryRow } from './directory-columns.js';

/**
 * An organization as the identity provider knows it (`organization.*` events). `linkedOrganizationId` is the
 * service organization whose slug the provider's `external_id` names (kept in step with the winning event); an
 * administrator's explicit link (`DirectoryOrganizationLink`) wins over it. Id and versioning columns: DirectoryRow.
 */
@Entity({ name: 'directory_organizations' })
@Index('IDX_directory_organizations_linked_organization_id', ['linkedOrganizationId'])
export class DirectoryOrganization extends DirectoryRow {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true })
  externalId!: string | null;

  @Column({ name: 'linked_organization_id', type: 'varchar', length: 36, nullable: true })
  linkedOrganizationId!: string | null;
}
