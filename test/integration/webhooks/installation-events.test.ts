import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Installation } from '../../../src/store/entities/installation.entity.js';
import { Organization } from '../../../src/store/entities/organization.entity.js';
import { ReportedInstallationRepository } from '../../../src/store/entities/reported-installation-repository.entity.js';
import { ReportedInstallation } from '../../../src/store/entities/reported-installation.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { connectInstallation, isInstallationConnected } from '../../../src/store/repository-admission.js';
import { examplePayload, signedDelivery } from '../../support/codehost-deliveries.js';
import { useTestService } from '../../support/test-service.js';

const SECRET = 'codehost-webhook-secret-for-installation-tests';

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type Payload = Record<string, unknown> & { installation: Record<string, unknown> };

/** A recorded payload of `event.action`, its installation given this id and these timestamps (ISO strings). */
function payload(event: string, action: string, installationId: number, times: { created?: string; updated?: string; suspended?: string | null } = {}): Payload {
  const body = examplePayload(event, action) as Payload;
  body.installation = {
    ...body.installation,
    id: installationId,
    created_at: times.created ?? '2026-01-10T10:00:00Z',
    updated_at: times.updated ?? times.created ?? '2026-01-10T10:00:00Z',
    ...(times.suspended === undefined ? {} : { suspended_at: times.suspended }),
  };
  return body;
}

// MySQL only: this is the delivery protocol over the installation records, whose ordering, tombstones and
// concurrent convergence run on both dialects in test/integration/repos/installation-records.test.ts (receipts and
// redeliveries in jobs/webhook-receipts.test.ts, connecting in store-repository-admission.test.ts).
describe('code-host installation deliveries', () => {
  const service = useTestService('mysql', { api: { codehost: { webhookSecret: SECRET } }, worker: { concurrency: 4 } });
  const { store } = service;
  const base = () => service.api.base;

  /** Posts a signed delivery to the service's receiver and waits until a worker has completed (or failed) it. */
  async function deliver(event: string, body: unknown, deliveryId: string = randomUUID(), settled: string[] = ['completed']): Promise<WebhookReceipt> {
    const signed = await signedDelivery(SECRET, event, body, deliveryId);
    const response = await fetch(`${base()}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
    return until(async () => {
      const receipt = await store().getRepository(WebhookReceipt).findOneBy({ deliveryId });
      return receipt && settled.includes(receipt.status) ? receipt : undefined;
    });
  }
  const installation = (id: number) => store().getRepository(ReportedInstallation).findOneBy({ provider: 'codehost', providerInstallationId: String(id) });
  const repositories = (id: number) =>
    store()
      .getRepository(ReportedInstallationRepository)
      .find({ where: { provider: 'codehost', providerInstallationId: String(id) }, order: { fullName: 'ASC' } });

  it('records a created installation and its repositories, connecting it to no organization', async () => {
    const body = payload('installation', 'created', 957387);

    await deliver('installation', body);

    expect(await installation(957387)).toMatchObject({ accountLogin: 'Codertocat', accountType: 'User', repositorySelection: 'selected', status: 'active', reportedAt: new Date('2026-01-10T10:00:00Z') });
    expect((await repositories(957387)).map(({ repositoryId, fullName, present }) => ({ repositoryId, fullName, present }))).toEqual([
      { repositoryId: '186853002', fullName: 'Codertocat/Hello-World', present: true },
    ]);
    expect(await store().getRepository(Installation).count()).toBe(0);
  });

  it('leaves connecting to an administrator (qa installations connect), who can connect a recorded installation', async () => {
    await deliver('installation', payload('installation', 'created', 4242));
    const organization = await store().getRepository(Organization).save({ id: randomUUID(), slug: 'acme', name: 'Acme' });
    expect(await isInstallationConnected(store(), 'codehost', '4242', organization.id)).toBe(false);

    await connectInstallation(store(), 'codehost', '4242', 'acme');

    expect(await isInstallationConnected(store(), 'codehost', '4242', organization.id)).toBe(true);
    expect(await installation(4242)).toMatchObject({ status: 'active' });
  });

  it('adds and removes repositories as installation_repositories reports them', async () => {
    await deliver('installation', payload('installation', 'created', 77));
    const added = payload('installation_repositories', 'added', 77, { updated: '2026-01-10T11:00:00Z' });
    const removed = { ...payload('installation_repositories', 'removed', 77, { updated: '2026-01-10T12:00:00Z' }), repositories_removed: [{ id: 186853002, full_name: 'Codertocat/Hello-World', private: false }] };

    await deliver('installation_repositories', added);
    await deliver('installation_repositories', removed);

    expect((await repositories(77)).map(({ fullName, present }) => ({ fullName, present }))).toEqual([
      { fullName: 'Codertocat/Hello-World', present: false },
      { fullName: 'Codertocat/Space', present: true },
    ]);
  });

  it('suspends and unsuspends, and a suspension delivered after a later unsuspension does not win', async () => {
    await deliver('installation', payload('installation', 'created', 88));
    await deliver('installation', payload('installation', 'suspend', 88, { updated: '2026-01-11T09:00:00Z', suspended: '2026-01-11T09:00:00Z' }));
    expect(await installation(88)).toMatchObject({ status: 'suspended' });

    await deliver('installation', payload('installation', 'unsuspend', 88, { updated: '2026-01-12T09:00:00Z', suspended: null }));
    // A second suspension, older than that unsuspension, arrives late.
    await deliver('installation', payload('installation', 'suspend', 88, { updated: '2026-01-11T18:00:00Z', suspended: '2026-01-11T18:00:00Z' }));

    expect(await installation(88)).toMatchObject({ status: 'active', reportedAt: new Date('2026-01-12T09:00:00Z') });
  });

  it('keeps a deleted installation deleted when its created event arrives afterwards (tombstone)', async () => {
    await deliver('installation', payload('installation', 'deleted', 99, { updated: '2026-01-10T10:05:00Z' }));
    await deliver('installation', payload('installation', 'created', 99));
    await deliver('installation_repositories', payload('installation_repositories', 'added', 99, { updated: '2026-01-10T10:06:00Z' }));

    expect(await installation(99)).toMatchObject({ status: 'deleted' });
    expect(await repositories(99)).toEqual([]);
  });

  it('marks the repositories of a deleted installation as gone', async () => {
    await deliver('installation', payload('installation', 'created', 100));
    await deliver('installation', payload('installation', 'deleted', 100, { updated: '2026-01-13T10:00:00Z' }));

    expect(await installation(100)).toMatchObject({ status: 'deleted' });
    expect((await repositories(100)).map(({ present }) => present)).toEqual([false]);
  });

  it('records one installation from a delivery posted 10 times at once and from a redelivery under another id', async () => {
    const body = payload('installation', 'created', 111);
    const signed = await signedDelivery(SECRET, 'installation', body, 'same-delivery');
    const responses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${base()}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
    await until(async () => (await store().getRepository(WebhookReceipt).findOneBy({ deliveryId: 'same-delivery' }))?.status === 'completed');

    await deliver('installation', body, 'a-redelivery');

    expect(await store().getRepository(ReportedInstallation).countBy({ providerInstallationId: '111' })).toBe(1);
    expect(await repositories(111)).toHaveLength(1);
    expect(await installation(111)).toMatchObject({ status: 'active' });
  });

  it('fails a signed installation delivery of the wrong shape with webhook.payload_invalid, recording nothing', async () => {
    const receipt = await deliver('installation', { action: 'created', installation: { account: { login: 'x' } } }, randomUUID(), ['failed', 'dead']);

    expect(receipt.lastError).toMatch(/installation delivery is not a payload this service understands: installation\.id/);
    expect(await store().getRepository(ReportedInstallation).count()).toBe(0);
  });

  it('completes other events and installation actions that record nothing without effect', async () => {
    await deliver('installation', payload('installation', 'new_permissions_accepted', 123));
    await deliver('pull_request', examplePayload('pull_request', 'opened'));

    expect(await store().getRepository(ReportedInstallation).count()).toBe(0);
  });
});
