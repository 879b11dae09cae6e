import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DIRECTORY_ID_LENGTH } from './directory-columns.js';

/**
 * A person's membership of an organization (`organization_membership.*` events): `status` `active`, `pending` or
 * `inactive`; `role` `admin` or `member`. No foreign keys: a membership may arrive before its user or organization
 * and counts once both exist. Versioning columns: directory-columns.ts.
 */
@Entity({ name: 'directory_memberships' })
@Index('IDX_directory_memberships_user_id', ['userId'])
@Index('IDX_directory_memberships_organization_id', ['organizationId'])
export class DirectoryMembership {
  @PrimaryColumn({ type: 'varchar', length: DIRECTORY_ID_LENGTH })
  id!: string;

  @Column({ name: 'user_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  userId!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  organizationId!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: string;

  @Column({ name: 'source_updated_at', type: 'datetime', precision: 3 })
  sourceUpdatedAt!: Date;

  @Column({ name: 'delivery_created_at', type: 'datetime', precision: 3 })
  deliveryCreatedAt!: Date;

  @Column({ name: 'event_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  eventId!: string;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
