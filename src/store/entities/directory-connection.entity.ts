import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DIRECTORY_ID_LENGTH } from './directory-columns.js';

/**
 * An enterprise SSO connection of an organization (`connection.activated|deactivated|deleted`): `state` `active` or
 * `inactive`; `domains` the lower-case e-mail domains it covers. A connection that is inactive or deleted takes the
 * organization away from its members whose e-mail domain it covers (src/identity/access-directory.ts). Versioning
 * columns: directory-columns.ts.
 */
@Entity({ name: 'directory_connections' })
@Index('IDX_directory_connections_organization_id', ['organizationId'])
export class DirectoryConnection {
  @PrimaryColumn({ type: 'varchar', length: DIRECTORY_ID_LENGTH })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  organizationId!: string;

  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'json' })
  domains!: string[];

  @Column({ name: 'source_updated_at', type: 'datetime', precision: 3 })
  sourceUpdatedAt!: Date;

  @Column({ name: 'delivery_created_at', type: 'datetime', precision: 3 })
  deliveryCreatedAt!: Date;

  @Column({ name: 'event_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  eventId!: string;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
