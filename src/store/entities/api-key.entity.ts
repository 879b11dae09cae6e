import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity.js';

/**
 * A machine credential `qa_<prefix>_<secret>`. Only the public prefix and the SHA-256 of the secret are stored;
 * the full key is shown once, when it is created (see src/identity/api-keys.ts).
 */
@Entity({ name: 'api_keys' })
@Index('IDX_api_keys_organization_id', ['organizationId'])
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_api_keys_organization_id' })
  organization?: Relation<Organization>;

  @Index('UQ_api_keys_prefix', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  prefix!: string;

  /** Lowercase hex SHA-256 of the secret part; never the secret itself. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  label!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'datetime', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'datetime', precision: 3, nullable: true })
  revokedAt!: Date | null;

  /** Who created it (`actorName`; null: the operator's CLI, or before 1765200000001). */
  @Column({ name: 'created_by', type: 'varchar', length: 300, nullable: true })
  createdBy!: string | null;

  @Column({ name: 'revoked_by', type: 'varchar', length: 300, nullable: true })
  revokedBy!: string | null;
}
