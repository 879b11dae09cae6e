import { expect, it } from '@jest/globals';
import { createApiKey } from '../../src/identity/api-keys.js';
import { connectInstallation, excludeOwner, isInstallationConnected, isOwnerExcluded } from '../../src/store/repository-admission.js';
import { forEachDialect, useTestStore } from '../support/dialects.js';

forEachDialect('repository admission', (dialect) => {
  const store = useTestStore(dialect);

  it('excludes owners by configuration or by record, case-insensitively, idempotently', async () => {
    expect(await isOwnerExcluded(store(), ['evil-corp'], 'Evil-Corp')).toBe(true);
    expect(await isOwnerExcluded(store(), [], 'spam-bot')).toBe(false);
    await excludeOwner(store(), 'Spam-Bot');
    await excludeOwner(store(), 'spam-bot');
    expect(await isOwnerExcluded(store(), [], 'SPAM-BOT')).toBe(true);
    expect(await isOwnerExcluded(store(), [], 'spam')).toBe(false);
  });

  it('connects an installation to one organization at a time, and refuses an unknown organization', async () => {
    const acme = (await createApiKey(store(), 'acme')).organization;
    const globex = (await createApiKey(store(), 'globex')).organization;
    await connectInstallation(store(), 'codehost', '42', 'acme');
    expect(await isInstallationConnected(store(), 'codehost', '42', acme.id)).toBe(true);
    expect(await isInstallationConnected(store(), 'codehost', '42', globex.id)).toBe(false);
    expect(await isInstallationConnected(store(), 'other-host', '42', acme.id)).toBe(false);
    await connectInstallation(store(), 'codehost', '42', 'globex');
    expect(await isInstallationConnected(store(), 'codehost', '42', acme.id)).toBe(false);
    expect(await isInstallationConnected(store(), 'codehost', '42', globex.id)).toBe(true);
    await expect(connectInstallation(store(), 'codehost', '7', 'nobody')).rejects.toMatchObject({ code: 'organization.not_found' });
  });
});
