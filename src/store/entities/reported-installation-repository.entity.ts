import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A repository a code-host installation was given (`present`) or had taken away, as the code host reports it
 * (`installation.created`, `installation_repositories`). Keyed by the code host's repository id, which survives a
 * rename; `reportedAt` orders late deliveries as on `ReportedInstallation`.
 */
@Entity({ name: 'reported_installation_repositories' })
@Index('IDX_reported_installation_repositories_full_name', ['provider', 'fullName'])
export class ReportedInstallationRepository {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  provider!: string;

  @PrimaryColumn({ name: 'provider_installation_id', type: 'varchar', length: 64 })
  providerInstallationId!: string;

  @PrimaryColumn({ name: 'repository_id', type: 'varchar', length: 32 })
  repositoryId!: string;

  /** `owner/name`. */
  @Column({ name: 'full_name', type: 'varchar', length: 200 })
  fullName!: string;

  @Column({ type: 'boolean' })
  private!: boolean;

  @Column({ type: 'boolean' })
  present!: boolean;

  @Column({ name: 'reported_at', type: 'datetime', precision: 3 })
  reportedAt!: Date;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
