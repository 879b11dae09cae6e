import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { directoryChangeOf, identityEnvelope } from '../../src/core/identity-events.js';
import { readAccess } from '../../src/identity/access-directory.js';
import { createDirectoryWriter } from '../../src/identity/directory-writer.js';
import { openStore } from '../../src/store/open-store.js';
import { identityEvent, identityObjects } from '../support/identity-deliveries.js';
import { silentLogger } from '../support/logger.js';
import { qa } from '../support/qa-cli.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 1, 10, minutes)).toISOString();

describe('qa orgs link (the real process)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-test-orgs-link-'));
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('links an identity organization before its first webhook, winning over an external_id that names another organization', async () => {
    const path = join(folder, 'link.sqlite');
    const env = { SQLITE_PATH: path, LOG_LEVEL: 'silent' };
    expect((await qa(['keys', 'create', '--org', 'acme'], env)).code).toBe(0);
    expect((await qa(['keys', 'create', '--org', 'globex'], env)).code).toBe(0);

    const linked = await qa(['orgs', 'link', '--org', 'acme', '--identity-org', 'org_01HXYZ'], env);
    expect(linked.code).toBe(0);
    expect(linked.stdout).toContain('Identity organization org_01HXYZ is linked to organization "acme"');
    expect(linked.stdout).toContain('No webhook has described that identity organization yet');

    const dataSource = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      const writer = createDirectoryWriter({ dataSource });
      for (const body of [
        identityEvent('organization.created', identityObjects.organization('org_01HXYZ', at(1), { name: 'Acme', external_id: 'globex' }), { createdAt: at(1) }),
        identityEvent('user.created', identityObjects.user('user_1', at(1)), { createdAt: at(1) }),
        identityEvent('organization_membership.created', identityObjects.membership('om_1', at(1), { user_id: 'user_1', organization_id: 'org_01HXYZ', role: 'admin' }), { createdAt: at(1) }),
      ]) {
        await writer.apply(directoryChangeOf(identityEnvelope.parse(body))!);
      }
      const [{ id: acme }] = (await dataSource.query("SELECT id FROM organizations WHERE slug = 'acme'")) as { id: string }[];
      expect(await readAccess(dataSource, 'user_1')).toMatchObject({ state: 'ready', organizations: [{ id: acme, name: 'acme', role: 'admin' }] });
    } finally {
      await dataSource.destroy();
    }

    const again = await qa(['orgs', 'link', '--org', 'globex', '--identity-org', 'org_01HXYZ'], env);
    expect([again.code, again.stdout.includes('No webhook')]).toEqual([0, false]);

    const noOrg = await qa(['orgs', 'link', '--org', 'nobody', '--identity-org', 'org_1'], env);
    expect([noOrg.code, /No organization with the slug "nobody"/.test(noOrg.stderr)]).toEqual([2, true]);
    const badId = await qa(['orgs', 'link', '--org', 'acme', '--identity-org', '../org'], env);
    expect([badId.code, /Invalid identity organization id/.test(badId.stderr)]).toEqual([2, true]);
    expect((await qa(['orgs', 'link', '--org', 'acme'], env)).code).toBe(2);
  });
});
