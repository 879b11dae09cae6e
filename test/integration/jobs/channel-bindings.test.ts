import { expect, it } from '@jest/globals';
import { chatPrincipal } from '../../../src/core/principal.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createChannelBindings } from '../../../src/jobs/chat/channel-bindings.js';
import { ChatChannelBinding } from '../../../src/store/entities/chat-channel-binding.entity.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

forEachDialect('chat channel bindings', (dialect) => {
  const store = useTestStore(dialect);
  const bindings = () => createChannelBindings(store());
  const channel = { teamId: 'T100', channelId: 'C200', boundBy: 'U300' };

  it("binds a channel by owner/name in any case, and answers the repository's site and allowlist", async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { networkAllowlist: ['cdn.shop.example'] });

    const bound = await bindings().bind(principal, { ...channel, repository: 'Acme/SHOP' });

    const expected = { repositoryId, repository: 'acme/shop', baseUrl: 'https://shop.example', networkAllowlist: ['cdn.shop.example'] };
    expect(bound).toEqual(expected);
    expect(await bindings().find(principal, 'T100', 'C200')).toEqual(expected);
    expect(await bindings().find(principal, 'T100', 'C999')).toBeNull();
    const row = await store().getRepository(ChatChannelBinding).findOneByOrFail({ teamId: 'T100', channelId: 'C200' });
    expect(row).toMatchObject({ organizationId: organization.id, repositoryId, baseUrl: null, boundBy: 'U300' });
  });

  it('finds a repository stored with capitals from a lower-case name', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { owner: 'Acme-Corp', name: 'Web.Shop' });

    expect(await bindings().bind(principal, { ...channel, repository: 'acme-corp/web.shop' })).toMatchObject({ repositoryId, repository: 'Acme-Corp/Web.Shop' });
    expect(await bindings().forRepository(principal, repositoryId)).toMatchObject({ repository: 'Acme-Corp/Web.Shop' });
  });

  it('binds by repository id with a site of its own, and a rebind replaces the binding', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const first = await insertRepository(store(), organization.id);
    const second = await insertRepository(store(), organization.id, { owner: 'acme', name: 'blog', baseUrl: 'https://blog.example' });
    await bindings().bind(principal, { ...channel, repository: first, baseUrl: 'http://staging.shop.example:8080/' });
    expect(await bindings().find(principal, 'T100', 'C200')).toMatchObject({ repositoryId: first, baseUrl: 'http://staging.shop.example:8080/' });

    await bindings().bind(principal, { ...channel, repository: second, boundBy: 'U301' });

    expect(await bindings().find(principal, 'T100', 'C200')).toEqual({ repositoryId: second, repository: 'acme/blog', baseUrl: 'https://blog.example', networkAllowlist: [] });
    const rows = await store().getRepository(ChatChannelBinding).find();
    expect(rows.map((row) => [row.repositoryId, row.boundBy])).toEqual([[second, 'U301']]);
  });

  it("answers 404 for another organization's repository, by name or by id, and for a reference that is no repository", async () => {
    const acme = await createApiKey(store(), 'acme');
    const globex = await createApiKey(store(), 'globex');
    const theirs = await insertRepository(store(), globex.organization.id, { owner: 'globex', name: 'site' });

    for (const repository of ['globex/site', 'GLOBEX/Site', theirs, 'not a repository', 'globex/site/extra']) {
      await expect(bindings().bind(acme.principal, { ...channel, repository })).rejects.toMatchObject({ code: 'repository.not_found', status: 404 });
    }
    await expect(bindings().forRepository(acme.principal, theirs)).rejects.toMatchObject({ code: 'repository.not_found', status: 404 });
    expect(await store().getRepository(ChatChannelBinding).count()).toBe(0);
  });

  it("does not use a binding another organization made (the workspace was connected elsewhere since)", async () => {
    const acme = await createApiKey(store(), 'acme');
    const globex = await createApiKey(store(), 'globex');
    await insertRepository(store(), acme.organization.id);
    const acmeUser = chatPrincipal(acme.organization.id, 'T100', 'U1');
    await bindings().bind(acmeUser, { ...channel, repository: 'acme/shop' });

    expect(await bindings().find(chatPrincipal(globex.organization.id, 'T100', 'U1'), 'T100', 'C200')).toBeNull();
    expect(await bindings().find(acmeUser, 'T100', 'C200')).toMatchObject({ repository: 'acme/shop' });
  });

  it('refuses a site that is not http(s), or carries credentials, and stores nothing', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    await insertRepository(store(), organization.id);
    for (const baseUrl of ['ftp://shop.example', 'javascript:alert(1)', 'shop.example', 'https://user:secret@shop.example', `https://shop.example/${'a'.repeat(2048)}`]) {
      await expect(bindings().bind(principal, { ...channel, repository: 'acme/shop', baseUrl })).rejects.toMatchObject({ code: 'chat.invalid_base_url', status: 400 });
    }
    expect(await store().getRepository(ChatChannelBinding).count()).toBe(0);
  });

  it("finds the repository for an address given inline: the one with the same origin, else the organization's only one", async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const shop = await insertRepository(store(), organization.id);
    expect(await bindings().forUrl(principal, 'https://preview-42.example/cart')).toMatchObject({ repositoryId: shop, baseUrl: 'https://preview-42.example/cart' });

    const blog = await insertRepository(store(), organization.id, { owner: 'acme', name: 'blog', baseUrl: 'https://blog.example' });

    expect(await bindings().forUrl(principal, 'https://blog.example/posts')).toMatchObject({ repositoryId: blog, repository: 'acme/blog' });
    expect(await bindings().forUrl(principal, 'https://preview-42.example/cart')).toBeNull();
  });
});
