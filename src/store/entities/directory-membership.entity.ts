import { Column, Entity, Index } from 'typeorm';
import { DIRECTORY_ID_LENGTH, DirectoryRow } from './directory-columns.js';

/**
 * A person's membership of an organization (`organization_membership.*` events): `status` `active`, `pending` or
 * `inactive`; `role` `admin` or `member`. No foreign keys: a membership may arrive before its user or organization
 * and counts once both exist. Id and versioning columns: DirectoryRow.
 */
@Entity({ name: 'directory_memberships' })
@Index('IDX_directory_memberships_user_id', ['userId'])
@Index('IDX_directory_memberships_organization_id', ['organizationId'])
export class DirectoryMembership extends DirectoryRow {
  @Column({ name: 'user_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  userId!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  organizationId!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: string;
}
