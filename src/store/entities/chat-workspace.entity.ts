import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity.js';

/**
 * A Slack workspace the bot is in. It serves an organization only once an administrator connected it
 * (`qa chat connect`); an OAuth install alone never picks one. `botTokenCiphertext` is the installation's bot token,
 * encrypted (src/identity/token-cipher.ts); null when the single-workspace CHAT_BOT_TOKEN serves the workspace.
 */
@Entity({ name: 'chat_workspaces' })
export class ChatWorkspace {
  @PrimaryColumn({ name: 'team_id', type: 'varchar', length: 32 })
  teamId!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36, nullable: true })
  organizationId!: string | null;

  @ManyToOne(() => Organization, { onDelete: 'SET NULL', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_chat_workspaces_organization_id' })
  organization?: Relation<Organization>;

  @Column({ name: 'team_name', type: 'varchar', length: 255, nullable: true })
  teamName!: string | null;

  @Column({ name: 'bot_user_id', type: 'varchar', length: 32, nullable: true })
  botUserId!: string | null;

  @Column({ name: 'bot_token_ciphertext', type: 'text', nullable: true })
  botTokenCiphertext!: string | null;

  /** The Slack user who installed the app (OAuth). */
  @Column({ name: 'installed_by', type: 'varchar', length: 32, nullable: true })
  installedBy!: string | null;

  /** `token` (CHAT_BOT_TOKEN, connected by the CLI) or `oauth` (installed through the install flow). */
  @Column({ type: 'varchar', length: 16 })
  source!: 'token' | 'oauth';

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
