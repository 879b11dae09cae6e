import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { identityEnvelope, directoryChangeOf } from '../../../src/core/identity-events.js';
import { readAccess } from '../../../src/identity/access-directory.js';
import { createDirectoryWriter } from '../../../src/identity/directory-writer.js';
import { Organization } from '../../../src/store/entities/organization.entity.js';
import { clearAccessDirectory, dumpAccessDirectory } from '../../support/access-directory-dump.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { identityEvent, identityObjects, type IdentityEventBody } from '../../support/identity-deliveries.js';

/** Minutes after a fixed start, as ISO text: object `updated_at`s and delivery `created_at`s. */
const at = (minutes: number) => new Date(Date.UTC(2026, 11, 1, 10, minutes)).toISOString();
const { user, organization, membership, invitation, connection } = identityObjects;

/**
 * One provider history with everything the ordering rules must survive: stale updates, ties on `updated_at` broken by
 * the delivery time and then by the delivery id, deletions followed by late updates, two deletions of one row,
 * memberships of users and organizations that arrive later or never, invitations, and SSO connections turned off
 * and on again.
 */
const HISTORY: IdentityEventBody[] = [
  identityEvent('user.created', user('user_ada', at(1), { email: 'ada@acme.test', name: 'Ada' }), { id: 'e01', createdAt: at(1) }),
  identityEvent('user.updated', user('user_ada', at(3), { email: 'ada@acme.test', name: 'Ada Lovelace' }), { id: 'e02', createdAt: at(3) }),
  identityEvent('user.updated', user('user_ada', at(2), { email: 'ada@acme.test', name: 'stale' }), { id: 'e03', createdAt: at(9) }),
  identityEvent('user.created', user('user_bob', at(1), { email: 'bob@acme.test', name: 'Bob' }), { id: 'e04', createdAt: at(1) }),
  identityEvent('user.updated', user('user_bob', at(4), { email: 'bob@acme.test', name: 'tie, earlier delivery' }), { id: 'e05', createdAt: at(5) }),
  identityEvent('user.updated', user('user_bob', at(4), { email: 'bob@acme.test', name: 'tie, lower id' }), { id: 'e06', createdAt: at(6) }),
  identityEvent('user.updated', user('user_bob', at(4), { email: 'bob@acme.test', name: 'tie, later delivery, higher id' }), { id: 'e07', createdAt: at(6) }),
  identityEvent('user.created', user('user_cy', at(1), { email: 'cy@acme.test' }), { id: 'e08', createdAt: at(1) }),
  identityEvent('user.deleted', user('user_cy', at(2), { email: 'cy@acme.test' }), { id: 'e09', createdAt: at(2) }),
  identityEvent('user.updated', user('user_cy', at(5), { email: 'cy@acme.test', name: 'back from the dead?' }), { id: 'e10', createdAt: at(5) }),
  identityEvent('user.created', user('user_dee', at(1), { email: 'dee@partner.test' }), { id: 'e11', createdAt: at(1) }),
  identityEvent('organization.created', organization('org_acme', at(1), { name: 'Acme', external_id: 'acme' }), { id: 'e12', createdAt: at(1) }),
  identityEvent('organization.updated', organization('org_acme', at(2), { name: 'Acme Corp', external_id: 'acme' }), { id: 'e13', createdAt: at(2) }),
  identityEvent('organization.created', organization('org_gone', at(1), { name: 'Gone', external_id: 'nobody' }), { id: 'e14', createdAt: at(1) }),
  identityEvent('organization.deleted', organization('org_gone', at(3), { name: 'Gone' }), { id: 'e15', createdAt: at(3) }),
  identityEvent('organization.deleted', organization('org_gone', at(4), { name: 'Gone for good' }), { id: 'e16', createdAt: at(4) }),
  identityEvent('organization_membership.created', membership('om_ada', at(1), { user_id: 'user_ada', organization_id: 'org_acme', status: 'pending' }), { id: 'e17', createdAt: at(1) }),
  identityEvent('organization_membership.updated', membership('om_ada', at(2), { user_id: 'user_ada', organization_id: 'org_acme', status: 'active', role: 'admin' }), { id: 'e18', createdAt: at(2) }),
  identityEvent('organization_membership.created', membership('om_bob', at(1), { user_id: 'user_bob', organization_id: 'org_acme' }), { id: 'e19', createdAt: at(1) }),
  identityEvent('organization_membership.deleted', membership('om_bob', at(1), { user_id: 'user_bob', organization_id: 'org_acme' }), { id: 'e20', createdAt: at(2) }),
  identityEvent('organization_membership.created', membership('om_cy', at(1), { user_id: 'user_cy', organization_id: 'org_acme' }), { id: 'e21', createdAt: at(1) }),
  identityEvent('organization_membership.created', membership('om_ghost', at(1), { user_id: 'user_never', organization_id: 'org_acme' }), { id: 'e22', createdAt: at(1) }),
  identityEvent('organization_membership.created', membership('om_dee', at(1), { user_id: 'user_dee', organization_id: 'org_acme' }), { id: 'e23', createdAt: at(1) }),
  identityEvent('organization_membership.created', membership('om_dee_gone', at(1), { user_id: 'user_dee', organization_id: 'org_gone' }), { id: 'e24', createdAt: at(1) }),
  identityEvent('invitation.created', invitation('inv_1', at(1), { email: 'new@acme.test', organization_id: 'org_acme' }), { id: 'e25', createdAt: at(1) }),
  identityEvent('invitation.accepted', invitation('inv_1', at(2), { email: 'new@acme.test', organization_id: 'org_acme' }), { id: 'e26', createdAt: at(2) }),
  identityEvent('invitation.created', invitation('inv_2', at(1), { email: 'late@acme.test', organization_id: 'org_acme' }), { id: 'e27', createdAt: at(1) }),
  identityEvent('invitation.revoked', invitation('inv_2', at(2), { email: 'late@acme.test', organization_id: 'org_acme' }), { id: 'e28', createdAt: at(2) }),
  identityEvent('connection.activated', connection('conn_acme', at(1), { organization_id: 'org_acme', domains: ['acme.test'] }), { id: 'e29', createdAt: at(1) }),
  identityEvent('connection.deactivated', connection('conn_acme', at(2), { organization_id: 'org_acme', domains: ['acme.test'] }), { id: 'e30', createdAt: at(2) }),
  identityEvent('connection.activated', connection('conn_acme', at(3), { organization_id: 'org_acme', domains: ['ACME.test'] }), { id: 'e31', createdAt: at(3) }),
  identityEvent('connection.activated', connection('conn_partner', at(1), { organization_id: 'org_acme', domains: ['partner.test'] }), { id: 'e32', createdAt: at(1) }),
  identityEvent('connection.deleted', connection('conn_partner', at(2), { organization_id: 'org_acme', domains: ['partner.test'] }), { id: 'e33', createdAt: at(2) }),
];
/** Redeliveries: the same deliveries again, byte for byte. */
const DELIVERIES = [...HISTORY, HISTORY[1]!, HISTORY[8]!, HISTORY[17]!, HISTORY[29]!, HISTORY[15]!];

/** A small seeded PRNG (mulberry32), so a failing order can be replayed from its seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const ORDERS = Number(process.env.IDENTITY_CONVERGENCE_ORDERS ?? 30);
const FIRST_SEED = Number(process.env.IDENTITY_CONVERGENCE_SEED ?? Math.floor(Math.random() * 2 ** 31));

forEachDialect('access directory convergence', (dialect) => {
  const store = useTestStore(dialect);

  it(`ends in the same directory for ${ORDERS} random arrival orders of one history with duplicates (seeds from ${FIRST_SEED})`, async () => {
    const acme = randomUUID();
    await store().getRepository(Organization).insert({ id: acme, slug: 'acme', name: 'Acme (service)' });
    const writer = createDirectoryWriter({ dataSource: store() });
    const apply = async (deliveries: readonly IdentityEventBody[]) => {
      for (const body of deliveries) {
        const change = directoryChangeOf(identityEnvelope.parse(JSON.parse(JSON.stringify(body))));
        if (change) await writer.apply(change);
      }
    };

    await apply(HISTORY);
    const reference = await dumpAccessDirectory(store());
    const access = {
      ada: await readAccess(store(), 'user_ada'),
      bob: await readAccess(store(), 'user_bob'),
      cy: await readAccess(store(), 'user_cy'),
      dee: await readAccess(store(), 'user_dee'),
    };

    // The history in order reads as a person would expect it to.
    const byId = (table: string, id: string) => (reference[table] as Array<Record<string, unknown>>).find((row) => row.id === id);
    expect(byId('directory_users', 'user_ada')).toMatchObject({ name: 'Ada Lovelace', deletedAt: null });
    expect(byId('directory_users', 'user_bob')).toMatchObject({ name: 'tie, later delivery, higher id' });
    expect(byId('directory_users', 'user_cy')).toMatchObject({ deletedAt: at(2), name: null });
    expect(byId('directory_organizations', 'org_acme')).toMatchObject({ name: 'Acme Corp', linkedOrganizationId: acme });
    expect(byId('directory_organizations', 'org_gone')).toMatchObject({ name: 'Gone for good', deletedAt: at(4) });
    expect(byId('directory_memberships', 'om_bob')).toMatchObject({ deletedAt: at(2) });
    expect(byId('directory_invitations', 'inv_2')).toMatchObject({ state: 'revoked' });
    expect(byId('directory_connections', 'conn_acme')).toMatchObject({ state: 'active', domains: ['acme.test'], deletedAt: null });
    expect(access).toEqual({
      ada: { state: 'ready', user: { id: 'user_ada', email: 'ada@acme.test', name: 'Ada Lovelace' }, organizations: [{ id: acme, name: 'Acme (service)', role: 'admin' }] },
      bob: { state: 'setup_required', missing: ['organization', 'membership'] },
      cy: { state: 'setup_required', missing: ['user'] },
      // Dee's domain is covered only by the deleted connection.
      dee: { state: 'setup_required', missing: ['membership'] },
    });

    for (let run = 0; run < ORDERS; run += 1) {
      const seed = FIRST_SEED + run;
      await clearAccessDirectory(store());
      await apply(shuffled(DELIVERIES, prng(seed)));
      try {
        expect(await dumpAccessDirectory(store())).toEqual(reference);
        expect(await readAccess(store(), 'user_ada')).toEqual(access.ada);
        expect(await readAccess(store(), 'user_dee')).toEqual(access.dee);
      } catch (error) {
        throw new Error(`the directory differs after the arrival order of seed ${seed} (IDENTITY_CONVERGENCE_SEED=${seed} IDENTITY_CONVERGENCE_ORDERS=1 replays it)\n${String(error)}`);
      }
    }
  });
});
