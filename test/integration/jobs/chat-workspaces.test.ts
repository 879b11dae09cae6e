import { randomBytes } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { chatPrincipal } from '../../../src/core/principal.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createChannelBindings } from '../../../src/jobs/chat/channel-bindings.js';
import { createChatWorkspaces } from '../../../src/jobs/chat/chat-workspaces.js';
import { ChatChannelBinding } from '../../../src/store/entities/chat-channel-binding.entity.js';
import { ChatWorkspace } from '../../../src/store/entities/chat-workspace.entity.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const TOKEN = 'xoxb-111-222-secretsecretsecret';
const installation = { teamId: 'T100', teamName: 'Acme', botUserId: 'U0BOT', botToken: TOKEN, installedBy: 'U001' };

forEachDialect('chat workspaces', (dialect) => {
  const store = useTestStore(dialect);
  const key = randomBytes(32);
  const workspacesWith = (tokenKey: Buffer | undefined) => createChatWorkspaces({ dataSource: store(), tokenKey });

  it('connects a team to an organization by slug, served by the configured token, and disconnects it', async () => {
    const { organization } = await createApiKey(store(), 'acme');
    const workspaces = workspacesWith(undefined);

    expect(await workspaces.connect({ teamId: 'T100', organizationSlug: 'acme', teamName: 'Acme HQ' })).toEqual({ teamId: 'T100', organizationId: organization.id, source: 'token' });

    expect(await workspaces.find('T100')).toEqual({ teamId: 'T100', teamName: 'Acme HQ', organizationId: organization.id, botUserId: null, botToken: null });
    await workspaces.disconnect('T100');
    // The row stays (an install keeps its token), serving no organization: the bot says how to connect it.
    expect(await workspaces.find('T100')).toMatchObject({ teamId: 'T100', organizationId: null });
    expect(await workspaces.find('T999')).toBeNull();
  });

  it('refuses an unknown organization slug, a bad team id, and disconnecting a team it does not know', async () => {
    const workspaces = workspacesWith(undefined);
    await expect(workspaces.connect({ teamId: 'T100', organizationSlug: 'nobody' })).rejects.toMatchObject({ code: 'organization.not_found', message: 'No organization with slug "nobody"' });
    await createApiKey(store(), 'acme');
    for (const teamId of ['T'.repeat(33), 't100', 'C100', '']) {
      await expect(workspaces.connect({ teamId, organizationSlug: 'acme' })).rejects.toMatchObject({ code: 'chat.invalid_team_id', status: 400 });
    }
    await expect(workspaces.disconnect('T404')).rejects.toMatchObject({ code: 'chat.workspace_not_found', status: 404 });
    expect(await store().getRepository(ChatWorkspace).count()).toBe(0);
  });

  it('stores an OAuth install with its bot token encrypted and no organization, and reads it back decrypted', async () => {
    const workspaces = workspacesWith(key);

    await workspaces.saveInstallation(installation);

    const row = await store().getRepository(ChatWorkspace).findOneByOrFail({ teamId: 'T100' });
    expect(row).toMatchObject({ source: 'oauth', installedBy: 'U001', botUserId: 'U0BOT', organizationId: null });
    expect(row.botTokenCiphertext).toMatch(/^v1:/);
    expect(row.botTokenCiphertext).not.toContain(TOKEN);
    expect(await workspaces.find('T100')).toEqual({ teamId: 'T100', teamName: 'Acme', organizationId: null, botUserId: 'U0BOT', botToken: TOKEN });
  });

  it('keeps the organization connection across an OAuth reinstall, which replaces the token', async () => {
    const { organization } = await createApiKey(store(), 'acme');
    const workspaces = workspacesWith(key);
    await workspaces.saveInstallation(installation);
    expect(await workspaces.connect({ teamId: 'T100', organizationSlug: 'acme' })).toMatchObject({ source: 'oauth' });

    await workspaces.saveInstallation({ ...installation, teamName: 'Acme Inc', botToken: 'xoxb-333-444-rotated', installedBy: 'U002' });

    expect(await workspaces.find('T100')).toEqual({ teamId: 'T100', teamName: 'Acme Inc', organizationId: organization.id, botUserId: 'U0BOT', botToken: 'xoxb-333-444-rotated' });
    expect(await store().getRepository(ChatWorkspace).count()).toBe(1);
  });

  it('refuses to store a token without CHAT_TOKEN_KEY, and never answers with plaintext under another key', async () => {
    await expect(workspacesWith(undefined).saveInstallation(installation)).rejects.toMatchObject({ code: 'chat.token_key_missing', message: expect.stringContaining('CHAT_TOKEN_KEY') });
    expect(await store().getRepository(ChatWorkspace).count()).toBe(0);

    await workspacesWith(key).saveInstallation(installation);

    await expect(workspacesWith(undefined).find('T100')).rejects.toMatchObject({ code: 'chat.token_key_missing' });
    await expect(workspacesWith(randomBytes(32)).find('T100')).rejects.toMatchObject({ code: 'chat.token_unreadable', status: 503 });
    expect((await workspacesWith(key).find('T100'))?.botToken).toBe(TOKEN);
  });

  it("moves a team to another organization and drops its bindings to the old organization's repositories", async () => {
    const acme = await createApiKey(store(), 'acme');
    const globex = await createApiKey(store(), 'globex');
    const workspaces = workspacesWith(undefined);
    const bindings = createChannelBindings(store());
    await workspaces.connect({ teamId: 'T100', organizationSlug: 'acme' });
    await insertRepository(store(), acme.organization.id);
    const acmeUser = chatPrincipal(acme.organization.id, 'T100', 'U1');
    await bindings.bind(acmeUser, { teamId: 'T100', channelId: 'C1', repository: 'acme/shop', boundBy: 'U1' });
    // Another team's binding to the same repository is not the moved team's business.
    await bindings.bind(chatPrincipal(acme.organization.id, 'T200', 'U2'), { teamId: 'T200', channelId: 'C1', repository: 'acme/shop', boundBy: 'U2' });

    // Reconnecting to the same organization keeps the binding.
    await workspaces.connect({ teamId: 'T100', organizationSlug: 'acme' });
    expect(await bindings.find(acmeUser, 'T100', 'C1')).toMatchObject({ repository: 'acme/shop' });

    await workspaces.connect({ teamId: 'T100', organizationSlug: 'globex' });

    expect(await workspaces.find('T100')).toMatchObject({ organizationId: globex.organization.id });
    const left = await store().getRepository(ChatChannelBinding).find();
    expect(left.map((binding) => [binding.teamId, binding.channelId])).toEqual([['T200', 'C1']]);
    // Connected back to acme, the old binding does not come back to life.
    await workspaces.connect({ teamId: 'T100', organizationSlug: 'acme' });
    expect(await bindings.find(acmeUser, 'T100', 'C1')).toBeNull();
  });
});
