import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DIRECTORY_ID_LENGTH } from './directory-columns.js';

/** A person as the identity provider knows them (`user.*` events). Versioning columns: directory-columns.ts. */
@Entity({ name: 'directory_users' })
export class DirectoryUser {
  @PrimaryColumn({ type: 'varchar', length: DIRECTORY_ID_LENGTH })
  id!: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email!: string | null;

  @Column({ name: 'email_verified', type: 'boolean', default: 0 })
  emailVerified!: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name!: string | null;

  @Column({ name: 'source_updated_at', type: 'datetime', precision: 3 })
  sourceUpdatedAt!: Date;

  @Column({ name: 'delivery_created_at', type: 'datetime', precision: 3 })
  deliveryCreatedAt!: Date;

  @Column({ name: 'event_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  eventId!: string;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
