import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A person's sign-in session (src/identity/sessions.ts). Keyed by the SHA-256 of the cookie's random value, never
 * the value. What the person may reach is not stored here: it is read from the access directory on every request.
 */
@Entity({ name: 'sessions' })
@Index('IDX_sessions_user_id', ['userId'])
@Index('IDX_sessions_expires_at', ['expiresAt'])
@Index('IDX_sessions_last_seen_at', ['lastSeenAt'])
export class Session {
  /** Lowercase hex SHA-256 of the session id the cookie carries. */
  @PrimaryColumn({ name: 'id_hash', type: 'varchar', length: 64 })
  idHash!: string;

  /** The directory user id: the ID token's `sub`. */
  @Column({ name: 'user_id', type: 'varchar', length: 255 })
  userId!: string;

  /** The service organization the person chose to work in; checked against the directory on every request. */
  @Column({ name: 'organization_id', type: 'varchar', length: 36, nullable: true })
  organizationId!: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  /** Idle expiry counts from here; written at most once a minute. */
  @Column({ name: 'last_seen_at', type: 'datetime', precision: 3 })
  lastSeenAt!: Date;

  /** Absolute expiry: sign-in time plus IDENTITY_SESSION_ABSOLUTE_HOURS. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;
}
