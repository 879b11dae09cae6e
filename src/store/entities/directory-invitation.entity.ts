import { Column, Entity, Index } from 'typeorm';
import { DIRECTORY_ID_LENGTH, DirectoryRow } from './directory-columns.js';

/**
 * An invitation to an organization (`invitation.created|accepted|revoked|expired`): `state` `pending`, `accepted`,
 * `revoked` or `expired`. Recorded for operators; access comes from the membership the provider creates on
 * acceptance, never from the invitation. No deletion event exists, so `deleted_at` stays null. Id and versioning columns:
 * DirectoryRow.
 */
@Entity({ name: 'directory_invitations' })
@Index('IDX_directory_invitations_organization_id', ['organizationId'])
export class DirectoryInvitation extends DirectoryRow {
  @Column({ name: 'organization_id', type: 'varchar', length: DIRECTORY_ID_LENGTH, nullable: true })
  organizationId!: string | null;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true })
  expiresAt!: Date | null;
}
