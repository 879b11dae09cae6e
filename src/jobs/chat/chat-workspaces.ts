import { Not, type DataSource } from 'typeorm';
import { AppError, ErrorCode, userError } from '../../core/errors.js';
import { decryptSecret, encryptSecret } from '../../core/token-cipher.js';
import { ChatChannelBinding } from '../../store/entities/chat-channel-binding.entity.js';
import { ChatWorkspace } from '../../store/entities/chat-workspace.entity.js';
import { Organization } from '../../store/entities/organization.entity.js';

/** A Slack team id: `T` (or `E` for an Enterprise Grid org) and capitals and digits. */
export const TEAM_ID = /^[TE][A-Z0-9]{2,31}$/;

export interface ChatWorkspaceView {
  teamId: string;
  teamName: string | null;
  /** Null until an administrator connects the workspace (`qa chat connect`). */
  organizationId: string | null;
  botUserId: string | null;
  /** The installation's bot token (decrypted), or null when CHAT_BOT_TOKEN serves the workspace. */
  botToken: string | null;
}

export interface InstalledWorkspace {
  teamId: string;
  teamName: string | null;
  botUserId: string;
  botToken: string;
  installedBy: string;
}

/**
 * The Slack workspaces the bot is in. Installing the app (OAuth) stores a workspace and its encrypted bot token but
 * connects it to no organization: only an administrator does that (`qa chat connect`), so whoever clicks "Add to
 * Slack" cannot attach a workspace to someone else's organization.
 */
export function createChatWorkspaces({ dataSource, tokenKey }: { dataSource: DataSource; tokenKey: Buffer | undefined }) {
  const workspaces = () => dataSource.getRepository(ChatWorkspace);
  const key = (): Buffer => {
    if (!tokenKey) throw new AppError({ kind: 'operational', code: ErrorCode.ChatTokenKeyMissing, status: 503, message: 'CHAT_TOKEN_KEY is not set: installation tokens cannot be stored or read' });
    return tokenKey;
  };
  const checkTeam = (teamId: string) => {
    if (!TEAM_ID.test(teamId)) throw userError(ErrorCode.ChatInvalidTeamId, `"${teamId.slice(0, 40)}" is not a Slack team id (T followed by capitals and digits)`);
  };

  return {
    /**
     * Connects the workspace to the organization with that slug (creating its row for a CHAT_BOT_TOKEN workspace).
     * Connecting it to another organization drops its channel bindings to the previous one's repositories in the same
     * commit: they would never be used again (lookups are scoped by organization), and a later reconnection to the
     * old organization should not silently revive what the channels pointed at before.
     */
    async connect(input: { teamId: string; organizationSlug: string; teamName?: string }): Promise<{ teamId: string; organizationId: string; source: 'token' | 'oauth' }> {
      checkTeam(input.teamId);
      const organization = await dataSource.getRepository(Organization).findOneBy({ slug: input.organizationSlug });
      if (!organization) throw userError(ErrorCode.OrganizationNotFound, `No organization with slug "${input.organizationSlug}"`);
      return dataSource.transaction(async (manager) => {
        const rows = manager.getRepository(ChatWorkspace);
        const existing = await rows.findOneBy({ teamId: input.teamId });
        const now = new Date();
        await manager.getRepository(ChatChannelBinding).delete({ teamId: input.teamId, organizationId: Not(organization.id) });
        if (existing) {
          await rows.update({ teamId: input.teamId }, { organizationId: organization.id, ...(input.teamName ? { teamName: input.teamName } : {}), updatedAt: now });
          return { teamId: input.teamId, organizationId: organization.id, source: existing.source };
        }
        await rows.insert({ teamId: input.teamId, organizationId: organization.id, teamName: input.teamName ?? null, botUserId: null, botTokenCiphertext: null, installedBy: null, source: 'token', updatedAt: now });
        return { teamId: input.teamId, organizationId: organization.id, source: 'token' as const };
      });
    },

    /** Stops the workspace serving its organization; its installation (if any) stays, so connecting again is enough. */
    async disconnect(teamId: string): Promise<void> {
      checkTeam(teamId);
      const result = await workspaces().update({ teamId }, { organizationId: null, updatedAt: new Date() });
      if (!result.affected) throw userError(ErrorCode.ChatWorkspaceNotFound, `No chat workspace ${teamId}: it was never connected or installed, so there is nothing to disconnect (check the team id)`, { status: 404 });
    },

    /** Stores an OAuth installation (a reinstall replaces the token and keeps the connection). */
    async saveInstallation(installation: InstalledWorkspace): Promise<void> {
      checkTeam(installation.teamId);
      const ciphertext = encryptSecret(key(), installation.botToken);
      const fields = { teamName: installation.teamName, botUserId: installation.botUserId, botTokenCiphertext: ciphertext, installedBy: installation.installedBy, source: 'oauth' as const, updatedAt: new Date() };
      const existing = await workspaces().findOneBy({ teamId: installation.teamId });
      if (existing) await workspaces().update({ teamId: installation.teamId }, fields);
      else await workspaces().insert({ teamId: installation.teamId, organizationId: null, ...fields });
    },

    async find(teamId: string): Promise<ChatWorkspaceView | null> {
      if (!TEAM_ID.test(teamId)) return null;
      const workspace = await workspaces().findOneBy({ teamId });
      if (!workspace) return null;
      return {
        teamId,
        teamName: workspace.teamName,
        organizationId: workspace.organizationId,
        botUserId: workspace.botUserId,
        botToken: workspace.botTokenCiphertext === null ? null : decryptSecret(key(), workspace.botTokenCiphertext),
      };
    },
  };
}

export type ChatWorkspaces = ReturnType<typeof createChatWorkspaces>;
