import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConnectedRepository } from './connected-repository.entity.js';
import { Organization } from './organization.entity.js';

/** What a Slack channel checks by default (`@qa use owner/name [at url]`): a repository and, optionally, an address. */
@Entity({ name: 'chat_channel_bindings' })
export class ChatChannelBinding {
  @PrimaryColumn({ name: 'team_id', type: 'varchar', length: 32 })
  teamId!: string;

  @PrimaryColumn({ name: 'channel_id', type: 'varchar', length: 32 })
  channelId!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_chat_channel_bindings_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'repository_id', type: 'varchar', length: 36 })
  repositoryId!: string;

  @ManyToOne(() => ConnectedRepository, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'repository_id', foreignKeyConstraintName: 'FK_chat_channel_bindings_repository_id' })
  repository?: Relation<ConnectedRepository>;

  /** Null: the repository's own baseUrl. */
  @Column({ name: 'base_url', type: 'varchar', length: 2048, nullable: true })
  baseUrl!: string | null;

  @Column({ name: 'bound_by', type: 'varchar', length: 32 })
  boundBy!: string;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
