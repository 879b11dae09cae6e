import { Column, Entity } from 'typeorm';
import { DirectoryRow } from './directory-columns.js';

/** A person as the identity provider knows them (`user.*` events). Id and versioning columns: DirectoryRow. */
@Entity({ name: 'directory_users' })
export class DirectoryUser extends DirectoryRow {
  @Column({ type: 'varchar', length: 320, nullable: true })
  email!: string | null;

  @Column({ name: 'email_verified', type: 'boolean', default: 0 })
  emailVerified!: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name!: string | null;
}
