import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { WEBHOOK_DELIVERY_JOB } from '../../../src/workflows/webhook-delivery-starter.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { examplePayload, signedDelivery, type SignedDelivery } from '../../support/codehost-deliveries.js';
import { useTestStore } from '../../support/dialects.js';

const SECRET = 'codehost-webhook-secret-for-tests';
const PREVIOUS = 'codehost-webhook-secret-being-rotated-out';
const PATH = '/api/webhooks/codehost';

describe('POST /api/webhooks/codehost', () => {
  const store = useTestStore('mysql');
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi(store(), { codehost: { webhookSecret: SECRET, previousWebhookSecret: PREVIOUS } });
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    await store().getRepository(WebhookReceipt).clear();
    await store().query('DELETE FROM agenda_jobs');
  });

  const post = async ({ headers, body }: SignedDelivery) => {
    const response = await fetch(`${api.base}${PATH}`, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as { deliveryId?: string; receipt?: string; error: { code: string; message: string } } };
  };
  const receipts = () => store().getRepository(WebhookReceipt).find();
  const deliveryJobs = async () => ((await store().query('SELECT name FROM agenda_jobs WHERE name = ?', [WEBHOOK_DELIVERY_JOB])) as unknown[]).length;

  it('stores a signed pull_request delivery as a receipt, queues its processing, and answers 202', async () => {
    const payload = examplePayload('pull_request', 'opened');
    const delivery = await signedDelivery(SECRET, 'pull_request', payload, 'a1b2c3d4-0000-4000-8000-000000000001');

    const response = await post(delivery);

    expect(response).toEqual({ status: 202, body: { deliveryId: 'a1b2c3d4-0000-4000-8000-000000000001', receipt: 'accepted' } as never });
    expect(await receipts()).toEqual([
      expect.objectContaining({ provider: 'codehost', deliveryId: 'a1b2c3d4-0000-4000-8000-000000000001', event: 'pull_request', status: 'pending', payload }),
    ]);
    expect(await deliveryJobs()).toBe(1);
  });

  it('accepts a delivery signed with the secret being rotated out', async () => {
    expect((await post(await signedDelivery(PREVIOUS, 'installation', examplePayload('installation', 'created')))).status).toBe(202);
  });

  it('stores a delivery posted 20 times at once once, and answers each copy 202', async () => {
    const delivery = await signedDelivery(SECRET, 'pull_request', examplePayload('pull_request', 'synchronize'));

    const responses = await Promise.all(Array.from({ length: 20 }, () => post(delivery)));

    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(202));
    expect(responses.filter((response) => response.body.receipt === 'accepted')).toHaveLength(1);
    expect(responses.filter((response) => response.body.receipt === 'duplicate')).toHaveLength(19);
    expect(await receipts()).toHaveLength(1);
    expect(await deliveryJobs()).toBe(1);
  });

  it('refuses the same delivery id with another body (409), keeping the first', async () => {
    const first = await signedDelivery(SECRET, 'pull_request', examplePayload('pull_request', 'opened'), 'same-id');
    const other = await signedDelivery(SECRET, 'pull_request', { ...examplePayload('pull_request', 'opened'), number: 999 }, 'same-id');
    expect((await post(first)).status).toBe(202);

    const response = await post(other);

    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('webhook.delivery_conflict');
    expect((await receipts())[0]!.payload).toEqual(examplePayload('pull_request', 'opened'));
  });

  describe('refuses, storing nothing', () => {
    const cases: [string, () => Promise<SignedDelivery>, number, string][] = [
      ['an unsigned delivery', async () => without(await valid(), 'x-codehost-signature-256'), 401, 'webhook.signature_missing'],
      ['a signature under another secret', async () => signedDelivery('not-the-secret', 'pull_request', examplePayload('pull_request', 'opened')), 401, 'webhook.signature_invalid'],
      ['a signature of other bytes', async () => ({ ...(await valid()), body: Buffer.from('{"action":"opened","number":1}') }), 401, 'webhook.signature_invalid'],
      ['a sha1 signature', async () => withHeader(await valid(), 'x-codehost-signature-256', 'sha1=0123456789abcdef0123456789abcdef01234567'), 401, 'webhook.signature_invalid'],
      ['a signature that is not hex', async () => withHeader(await valid(), 'x-codehost-signature-256', `sha256=${'zz'.repeat(32)}`), 401, 'webhook.signature_invalid'],
      ['no event header', async () => without(await valid(), 'x-codehost-event'), 400, 'webhook.header_missing'],
      ['no delivery header', async () => without(await valid(), 'x-codehost-delivery'), 400, 'webhook.header_missing'],
      ['an event name with spaces', async () => withHeader(await valid(), 'x-codehost-event', 'pull request'), 400, 'webhook.header_invalid'],
      ['a delivery id of 101 characters', async () => withHeader(await valid(), 'x-codehost-delivery', 'd'.repeat(101)), 400, 'webhook.header_invalid'],
      ['a delivery id with a path in it', async () => withHeader(await valid(), 'x-codehost-delivery', '../../etc/passwd'), 400, 'webhook.header_invalid'],
      ['a signed body that is not JSON', async () => signedDelivery(SECRET, 'pull_request', '{"action": "opened",'), 400, 'request.invalid_json'],
      ['a signed JSON array', async () => signedDelivery(SECRET, 'pull_request', '[1,2,3]'), 400, 'request.invalid_json'],
      ['a signed empty body', async () => ({ ...(await valid()), body: Buffer.alloc(0), headers: { ...(await valid()).headers, 'x-codehost-signature-256': `sha256=${createHmac('sha256', SECRET).update('').digest('hex')}` } }), 400, 'request.invalid_json'],
      ['a body over 1 MB', async () => signedDelivery(SECRET, 'pull_request', { padding: 'x'.repeat(1_100_000) }), 413, 'request.too_large'],
    ];
    it.each(cases)('%s', async (_name, make, status, code) => {
      const response = await post(await make());

      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(typeof response.body.error.message).toBe('string');
      expect(await receipts()).toEqual([]);
      expect(await deliveryJobs()).toBe(0);
    });
  });

  it('stores a payload with a lone surrogate as well-formed text instead of failing after the signature held', async () => {
    const response = await post(await signedDelivery(SECRET, 'issue_comment', '{"action":"created","comment":{"body":"/qa \\ud800 check the cart"}}'));

    expect(response.status).toBe(202);
    expect((await receipts())[0]!.payload).toEqual({ action: 'created', comment: { body: '/qa \ufffd check the cart' } });
  });
});

const valid = () => signedDelivery(SECRET, 'pull_request', examplePayload('pull_request', 'opened'));

function without(delivery: SignedDelivery, name: string): SignedDelivery {
  const { [name]: _dropped, ...headers } = delivery.headers;
  return { ...delivery, headers };
}

function withHeader(delivery: SignedDelivery, name: string, value: string): SignedDelivery {
  return { ...delivery, headers: { ...delivery.headers, [name]: value } };
}
