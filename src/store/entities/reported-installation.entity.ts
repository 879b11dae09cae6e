import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A code-host app installation as the code host reports it (`installation` events). Recording one connects it to no
 * organization: that is `Installation`, made by an administrator. `status` is `active`, `suspended` or `deleted` (a
 * tombstone, never revived: installation ids are not reused); `reportedAt` is when the code host says the state shown
 * began, so an older event delivered late does not overwrite it (src/core/codehost-installation.ts).
 */
@Entity({ name: 'reported_installations' })
export class ReportedInstallation {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  provider!: string;

  @PrimaryColumn({ name: 'provider_installation_id', type: 'varchar', length: 64 })
  providerInstallationId!: string;

  @Column({ name: 'account_login', type: 'varchar', length: 100 })
  accountLogin!: string;

  /** `User` or `Organization`. */
  @Column({ name: 'account_type', type: 'varchar', length: 32 })
  accountType!: string;

  /** `all` or `selected`. */
  @Column({ name: 'repository_selection', type: 'varchar', length: 16 })
  repositorySelection!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ name: 'reported_at', type: 'datetime', precision: 3 })
  reportedAt!: Date;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
