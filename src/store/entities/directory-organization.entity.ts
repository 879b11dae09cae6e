import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DIRECTORY_ID_LENGTH } from './directory-columns.js';

/**
 * An organization as the identity provider knows it (`organization.*` events). `linkedOrganizationId` is the
 * service organization whose slug the provider's `external_id` names (kept in step with the winning event); an
 * administrator's explicit link (`DirectoryOrganizationLink`) wins over it. Versioning columns: directory-columns.ts.
 */
@Entity({ name: 'directory_organizations' })
@Index('IDX_directory_organizations_linked_organization_id', ['linkedOrganizationId'])
export class DirectoryOrganization {
  @PrimaryColumn({ type: 'varchar', length: DIRECTORY_ID_LENGTH })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true })
  externalId!: string | null;

  @Column({ name: 'linked_organization_id', type: 'varchar', length: 36, nullable: true })
  linkedOrganizationId!: string | null;

  @Column({ name: 'source_updated_at', type: 'datetime', precision: 3 })
  sourceUpdatedAt!: Date;

  @Column({ name: 'delivery_created_at', type: 'datetime', precision: 3 })
  deliveryCreatedAt!: Date;

  @Column({ name: 'event_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  eventId!: string;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
