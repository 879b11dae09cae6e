import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { WEBHOOK_DELIVERY_JOB } from '../../../src/workflows/webhook-delivery-starter.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
import { identityEvent, identityObjects, sendIdentityDelivery, signIdentityDelivery } from '../../support/identity-deliveries.js';

const SECRET = 'identity-webhook-secret-for-tests';
const PREVIOUS = 'identity-webhook-secret-being-rotated-out';
const PATH = '/api/webhooks/identity';
const MINUTE = 60_000;

interface Answer {
  status: number;
  body: { deliveryId?: string; receipt?: string; error: { code: string; message: string } };
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Answer['body'] };
}

const userCreated = (id = 'event_user_1') => identityEvent('user.created', identityObjects.user('user_1', '2026-12-01T10:00:00.000Z'), { id, createdAt: '2026-12-01T10:00:01.000Z' });

describe('POST /api/webhooks/identity', () => {
  const store = useTestStore('mysql');
  let api: TestApi;
  const url = () => `${api.base}${PATH}`;

  beforeAll(async () => {
    api = await startTestApi(store(), { identityWebhooks: { signingSecret: SECRET, previousSigningSecret: PREVIOUS } });
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    await store().getRepository(WebhookReceipt).clear();
    await store().query('DELETE FROM agenda_jobs');
  });

  const receipts = () => store().getRepository(WebhookReceipt).find();
  const deliveryJobs = async () => ((await store().query('SELECT name FROM agenda_jobs WHERE name = ?', [WEBHOOK_DELIVERY_JOB])) as unknown[]).length;
  /** Posts raw bytes with exactly these headers. */
  const postRaw = async (body: string, headers: Record<string, string>) => answer(await fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
  const signedHeaders = (body: string, options: { secret?: string | string[]; t?: number; deliveryId?: string } = {}) => ({
    'x-identity-signature': signIdentityDelivery(options.secret ?? SECRET, body, options.t ?? Date.now()),
    'x-identity-delivery-id': options.deliveryId ?? 'delivery-1',
  });

  it('stores a signed delivery as an identity receipt, queues its processing, and answers 202', async () => {
    const body = userCreated();

    const response = await answer(await sendIdentityDelivery(url(), body, { secret: SECRET, deliveryId: 'delivery-1' }));

    expect(response).toEqual({ status: 202, body: { deliveryId: 'delivery-1', receipt: 'accepted' } as never });
    expect(await receipts()).toEqual([expect.objectContaining({ provider: 'identity', deliveryId: 'delivery-1', event: 'user.created', status: 'pending', payload: body })]);
    expect(await deliveryJobs()).toBe(1);
  });

  it('accepts a delivery signed with the previous secret only (rotation)', async () => {
    expect((await answer(await sendIdentityDelivery(url(), userCreated(), { secret: PREVIOUS }))).status).toBe(202);
  });

  it('accepts several v1 values when any one matches, whatever their order', async () => {
    const body = JSON.stringify(userCreated());
    expect((await postRaw(body, signedHeaders(body, { secret: ['an-old-secret-we-never-had', SECRET], deliveryId: 'several-1' }))).status).toBe(202);
    expect((await postRaw(body, signedHeaders(body, { secret: [SECRET, 'a-new-secret-not-yet-ours'], deliveryId: 'several-2' }))).status).toBe(202);
  });

  it('accepts a delivery signed 4 minutes ago or 4 minutes ahead (clock skew)', async () => {
    const body = JSON.stringify(userCreated());
    expect((await postRaw(body, signedHeaders(body, { t: Date.now() - 4 * MINUTE, deliveryId: 'skew-past' }))).status).toBe(202);
    expect((await postRaw(body, signedHeaders(body, { t: Date.now() + 4 * MINUTE, deliveryId: 'skew-future' }))).status).toBe(202);
  });

  it('accepts a deletion that carries only the id of what was deleted', async () => {
    const body = identityEvent('organization_membership.deleted', { id: 'om_1' });
    expect((await answer(await sendIdentityDelivery(url(), body, { secret: SECRET }))).status).toBe(202);
  });

  it('acknowledges a replay of the same delivery as a duplicate, storing and queueing it once', async () => {
    const body = JSON.stringify(userCreated());
    const headers = signedHeaders(body, { deliveryId: 'replayed' });

    const responses = await Promise.all(Array.from({ length: 10 }, () => postRaw(body, headers)));

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
    expect(responses.filter((response) => response.body.receipt === 'accepted')).toHaveLength(1);
    expect(responses.filter((response) => response.body.receipt === 'duplicate')).toHaveLength(9);
    expect(await receipts()).toHaveLength(1);
    expect(await deliveryJobs()).toBe(1);
  });

  it('refuses the same delivery id with another (signed) body: 409, the first kept', async () => {
    const first = JSON.stringify(userCreated('event_a'));
    const other = JSON.stringify(userCreated('event_b'));
    expect((await postRaw(first, signedHeaders(first, { deliveryId: 'same-id' }))).status).toBe(202);

    const response = await postRaw(other, signedHeaders(other, { deliveryId: 'same-id' }));

    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('webhook.delivery_conflict');
    expect((await receipts())[0]!.payload).toMatchObject({ id: 'event_a' });
  });

  describe('refuses, storing nothing', () => {
    const valid = () => JSON.stringify(userCreated());
    const t = () => Date.now();
    const cases: [string, () => { body: string; headers: Record<string, string> }, number, string][] = [
      ['an unsigned delivery', () => ({ body: valid(), headers: { 'x-identity-delivery-id': 'd' } }), 401, 'webhook.signature_missing'],
      ['a signature under another secret', () => ({ body: valid(), headers: signedHeaders(valid(), { secret: 'not-the-secret' }) }), 401, 'webhook.signature_invalid'],
      ['a forged body under a real signature', () => ({ body: valid().replace('user_1', 'user_2'), headers: signedHeaders(valid()) }), 401, 'webhook.signature_invalid'],
      ['a signature whose t was changed', () => {
        const body = valid();
        const real = signIdentityDelivery(SECRET, body, t());
        return { body, headers: { 'x-identity-signature': real.replace(/^t=\d+/, `t=${t() + 1}`), 'x-identity-delivery-id': 'd' } };
      }, 401, 'webhook.signature_invalid'],
      ['a signature without t', () => ({ body: valid(), headers: { 'x-identity-signature': signIdentityDelivery(SECRET, valid(), t()).replace(/^t=\d+,/, ''), 'x-identity-delivery-id': 'd' } }), 401, 'webhook.signature_invalid'],
      ['a signature without v1', () => ({ body: valid(), headers: { 'x-identity-signature': `t=${t()}`, 'x-identity-delivery-id': 'd' } }), 401, 'webhook.signature_invalid'],
      ['a v1 that is not hex', () => ({ body: valid(), headers: { 'x-identity-signature': `t=${t()},v1=${'zz'.repeat(32)}`, 'x-identity-delivery-id': 'd' } }), 401, 'webhook.signature_invalid'],
      ['a signature made 6 minutes ago', () => ({ body: valid(), headers: signedHeaders(valid(), { t: t() - 6 * MINUTE }) }), 401, 'webhook.signature_stale'],
      ['a signature made 6 minutes ahead', () => ({ body: valid(), headers: signedHeaders(valid(), { t: t() + 6 * MINUTE }) }), 401, 'webhook.signature_stale'],
      ['a signature in seconds, not milliseconds', () => ({ body: valid(), headers: signedHeaders(valid(), { t: Math.floor(t() / 1000) }) }), 401, 'webhook.signature_stale'],
      ['no delivery id header', () => ({ body: valid(), headers: { 'x-identity-signature': signIdentityDelivery(SECRET, valid(), t()) } }), 400, 'webhook.header_missing'],
      ['a delivery id with a path in it', () => ({ body: valid(), headers: signedHeaders(valid(), { deliveryId: '../../etc/passwd' }) }), 400, 'webhook.header_invalid'],
      ['a signed body that is not JSON', () => ({ body: '{"id": "e",', headers: signedHeaders('{"id": "e",') }), 400, 'request.invalid_json'],
      ['a signed JSON array', () => ({ body: '[1,2]', headers: signedHeaders('[1,2]') }), 400, 'request.invalid_json'],
      ['a signed empty body', () => ({ body: '', headers: signedHeaders('') }), 400, 'request.invalid_json'],
      ['a body without created_at', () => {
        const body = JSON.stringify({ id: 'e', event: 'user.created', data: identityObjects.user('u', '2026-12-01T10:00:00Z') });
        return { body, headers: signedHeaders(body) };
      }, 400, 'webhook.body_invalid'],
      ['an event name that is not object.action', () => {
        const body = JSON.stringify({ ...userCreated(), event: 'user created' });
        return { body, headers: signedHeaders(body) };
      }, 400, 'webhook.body_invalid'],
      ['a membership with an unknown status', () => {
        const data = { ...identityObjects.membership('om', '2026-12-01T10:00:00Z', { user_id: 'u', organization_id: 'o' }), status: 'owner' };
        const body = JSON.stringify(identityEvent('organization_membership.created', data));
        return { body, headers: signedHeaders(body) };
      }, 400, 'webhook.body_invalid'],
      ['a user without updated_at', () => {
        const { updated_at: _dropped, ...data } = identityObjects.user('u', '2026-12-01T10:00:00Z');
        const body = JSON.stringify(identityEvent('user.updated', data));
        return { body, headers: signedHeaders(body) };
      }, 400, 'webhook.body_invalid'],
      ['a body over 256 KB', () => {
        const body = JSON.stringify({ ...userCreated(), padding: 'x'.repeat(300_000) });
        return { body, headers: signedHeaders(body) };
      }, 413, 'request.too_large'],
    ];
    it.each(cases)('%s', async (_name, make, status, code) => {
      const { body, headers } = make();

      const response = await postRaw(body, headers);

      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(typeof response.body.error.message).toBe('string');
      expect(await receipts()).toEqual([]);
      expect(await deliveryJobs()).toBe(0);
    });
  });

  it('does not exist (404) when IDENTITY_WEBHOOK_SIGNING_SECRET is unset', async () => {
    const unconfigured = await startTestApi(store());
    try {
      const response = await sendIdentityDelivery(`${unconfigured.base}${PATH}`, userCreated(), { secret: SECRET });
      expect(response.status).toBe(404);
      expect(await receipts()).toEqual([]);
    } finally {
      await unconfigured.close();
    }
  });
});
