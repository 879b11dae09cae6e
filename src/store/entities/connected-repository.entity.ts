import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { PullRequestSettings } from '../../core/pull-request-settings.js';
import { Organization } from './organization.entity.js';

/** An evidence probe a success criterion may call: the names of the test values holding its URL and token. */
export interface EvidenceProbeRef {
  urlValueRef: string;
  tokenValueRef: string;
}

/** A code-host repository connected to an organization (spec 2.3); jobs run against it (`projectId`/`repositoryId`). */
@Entity({ name: 'repositories' })
@Index('IDX_repositories_organization_id', ['organizationId'])
export class ConnectedRepository {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_repositories_organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'varchar', length: 32 })
  provider!: string;

  @Column({ name: 'provider_installation_id', type: 'varchar', length: 64 })
  providerInstallationId!: string;

  @Column({ type: 'varchar', length: 100 })
  owner!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'default_branch', type: 'varchar', length: 255 })
  defaultBranch!: string;

  @Column({ name: 'clone_url', type: 'varchar', length: 2048 })
  cloneUrl!: string;

  @Column({ name: 'base_url', type: 'varchar', length: 2048 })
  baseUrl!: string;

  @Column({ name: 'network_allowlist', type: 'json' })
  networkAllowlist!: string[];

  @Column({ name: 'test_value_secret_refs', type: 'json' })
  testValueSecretRefs!: Record<string, string>;

  @Column({ name: 'evidence_probe_refs', type: 'json' })
  evidenceProbeRefs!: Record<string, EvidenceProbeRef>;

  @Column({ type: 'varchar', length: 64, nullable: true })
  revision!: string | null;

  /** How its pull requests run; null: the defaults (read it through `pullRequestSettingsOf`). */
  @Column({ name: 'pull_request_settings', type: 'json', nullable: true })
  pullRequestSettings!: Partial<PullRequestSettings> | null;

  /**
   * The side-effect classes (`create`, `pay`, `send`…) an onboarding's catalog builds may carry out; a flow whose effect
   * is not listed is built up to the step before it. Null: none.
   */
  @Column({ name: 'allowed_side_effects', type: 'json', nullable: true })
  allowedSideEffects!: string[] | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
