import { describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Session } from '../../../src/store/entities/session.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { identityEvent, identityObjects, sendIdentityDelivery, type IdentityEventBody } from '../../support/identity-deliveries.js';
import { signIn, usePeopleServiceWithDirectory } from '../../support/people-service.js';
import { TestBrowser } from '../../support/signed-in-browser.js';

const SECRET = 'identity-webhook-secret-for-session-tests';
const SEEDS = [11, 12, 13];

/** mulberry32: a seeded order that a failure names, so it can be replayed. */
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

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = prng(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('a signed-in person and the directory the identity webhooks fill', () => {
  const { store, service } = usePeopleServiceWithDirectory('mysql', SECRET);
  const webhookUrl = () => `${service().base}/api/webhooks/identity`;

  /** Posts a delivery and waits until the worker applied it. */
  async function deliver(body: IdentityEventBody, deliveryId = body.id): Promise<number> {
    const sentAt = performance.now();
    const response = await sendIdentityDelivery(webhookUrl(), body, { secret: SECRET, deliveryId });
    expect(response.status).toBe(202);
    for (let waited = 0; waited < 15_000; waited += 20) {
      const receipt = await store().getRepository(WebhookReceipt).findOneBy({ provider: 'identity', deliveryId });
      if (receipt?.status === 'completed') return sentAt;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`delivery ${deliveryId} was not applied in 15 s`);
  }

  it.each(SEEDS)('holds the session at setup_required until the last of user, organization and membership arrives (order seed %i)', async (seed) => {
    const user = `user_seed_${seed}`;
    const slug = `acme-${seed}`;
    await createApiKey(store(), slug);
    const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const history = [
      identityEvent('user.created', identityObjects.user(user, at(1)), { createdAt: at(1) }),
      identityEvent('organization.created', identityObjects.organization(`org_${seed}`, at(2), { name: 'Acme', external_id: slug }), { createdAt: at(2) }),
      identityEvent('organization_membership.created', identityObjects.membership(`om_${seed}`, at(3), { user_id: user, organization_id: `org_${seed}`, role: 'admin', status: 'active' }), { createdAt: at(3) }),
    ];
    const browser = new TestBrowser();
    await signIn(service(), browser, user);

    const order = shuffled(history, seed);
    for (const [index, event] of order.entries()) {
      // A redelivery of the first changes nothing.
      if (index === 1) await deliver(order[0]!, `${order[0]!.id}-again`);
      const sentAt = await deliver(event);
      const session = await browser.call(service().base, 'GET', '/api/session');
      if (index < order.length - 1) {
        expect({ seed, index, state: session.body.state }).toEqual({ seed, index, state: 'setup_required' });
        expect((await browser.call(service().base, 'GET', '/api/repositories')).body.error.code).toBe('setup.required');
      } else {
        expect({ seed, state: session.body.state, organization: session.body.organization }).toEqual({ seed, state: 'ready', organization: { id: expect.any(String), name: slug, role: 'admin' } });
        expect(performance.now() - sentAt).toBeLessThan(15_000);
        expect((await browser.call(service().base, 'GET', '/api/repositories')).status).toBe(200);
      }
    }
  });

  it('ends the session at the next request after user.deleted, a membership turned inactive, and connection.deactivated', async () => {
    await createApiKey(store(), 'revoked-co');
    const at = (minute: number) => `2026-12-02T10:${String(minute).padStart(2, '0')}:00.000Z`;
    for (const user of ['user_gone', 'user_inactive', 'user_sso']) {
      await deliver(identityEvent('user.created', identityObjects.user(user, at(1)), { createdAt: at(1) }));
      await deliver(identityEvent('organization_membership.created', identityObjects.membership(`om_${user}`, at(1), { user_id: user, organization_id: 'org_revoked', status: 'active' }), { createdAt: at(1) }));
    }
    await deliver(identityEvent('organization.created', identityObjects.organization('org_revoked', at(1), { external_id: 'revoked-co' }), { createdAt: at(1) }));

    const gone = new TestBrowser();
    await signIn(service(), gone, 'user_gone');
    const inactive = new TestBrowser();
    await signIn(service(), inactive, 'user_inactive');
    await deliver(identityEvent('connection.activated', identityObjects.connection('conn_1', at(2), { organization_id: 'org_revoked', domains: ['example.test'] }), { createdAt: at(2) }));
    const sso = new TestBrowser();
    await signIn(service(), sso, 'user_sso');
    for (const browser of [gone, inactive, sso]) expect((await browser.call(service().base, 'GET', '/api/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    await deliver(identityEvent('user.deleted', identityObjects.user('user_gone', at(5)), { createdAt: at(5) }));
    expect((await gone.call(service().base, 'GET', '/api/schedules')).status).toBe(401);
    await deliver(identityEvent('organization_membership.updated', identityObjects.membership('om_user_inactive', at(5), { user_id: 'user_inactive', organization_id: 'org_revoked', status: 'inactive' }), { createdAt: at(5) }));
    expect((await inactive.call(service().base, 'GET', '/api/schedules')).status).toBe(401);
    await deliver(identityEvent('connection.deactivated', identityObjects.connection('conn_1', at(6), { organization_id: 'org_revoked', domains: ['example.test'] }), { createdAt: at(6) }));
    expect((await sso.call(service().base, 'GET', '/api/schedules')).status).toBe(401);
    expect(await store().getRepository(Session).count()).toBe(0);
  });
});
