import { Column, Entity, Index } from 'typeorm';
import { DIRECTORY_ID_LENGTH, DirectoryRow } from './directory-columns.js';

/**
 * An enterprise SSO connection of an organization (`connection.activated|deactivated|deleted`): `state` `active` or
 * `inactive`; `domains` the lower-case e-mail domains it covers. A connection that is inactive or deleted takes the
 * organization away from its members whose e-mail domain it covers (src/identity/access-directory.ts). Id and
 * versioning columns: DirectoryRow.
 */
@Entity({ name: 'directory_connections' })
@Index('IDX_directory_connections_organization_id', ['organizationId'])
export class DirectoryConnection extends DirectoryRow {
  @Column({ name: 'organization_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  organizationId!: string;

  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'json' })
  domains!: string[];
}
