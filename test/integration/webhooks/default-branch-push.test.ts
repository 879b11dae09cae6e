/**
 * Merging into the default branch re-indexes the repository (issue 28): signed `push` deliveries to the API, a worker
 * composed with a Reindexer that records its calls, and GitHub's recorded push payloads.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { DefaultBranchPush } from '../../../src/store/entities/default-branch-push.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import type { Reindexer } from '../../../src/webhooks/codehost/push-handler.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { examplePayload, signedDelivery } from '../../support/codehost-deliveries.js';
import { forEachDialect } from '../../support/dialects.js';
import { useTestService } from '../../support/test-service.js';
import { until } from '../notify/pull-request-fixtures.js';

const SECRET = 'codehost-webhook-secret-for-push-tests';
const INSTALLATION = 42;

/** GitHub's recorded push to Codertocat/Hello-World's default branch (`master`), moved to `sha` at `pushedAt` (s). */
function push(sha: string, pushedAt: number, fields: { ref?: string; deleted?: boolean; installation?: boolean } = {}): Record<string, unknown> {
  const body = examplePayload('push') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
  body.ref = fields.ref ?? 'refs/heads/master';
  body.after = sha;
  body.deleted = fields.deleted ?? false;
  body.repository = { ...body.repository, default_branch: 'master', pushed_at: pushedAt };
  if (fields.installation === false) delete body.installation;
  else body.installation = { id: INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI=' };
  return body;
}

const shaOf = (digit: string) => digit.repeat(40);

forEachDialect('re-indexing when the default branch moves', (dialect) => {
  const calls: { organizationId: string; repositoryId: string; commitSha: string }[] = [];
  let failNext = 0;
  const reindexer: Reindexer = {
    reindex(organizationId, repositoryId, commitSha) {
      if (failNext > 0) {
        failNext -= 1;
        return Promise.reject(new Error('the onboarding queue is down'));
      }
      calls.push({ organizationId, repositoryId, commitSha });
      return Promise.resolve();
    },
  };
  const service = useTestService(dialect, { api: { codehost: { webhookSecret: SECRET } }, worker: { concurrency: 4, executablePath: '/nonexistent/chromium', reindexer } });
  const { store } = service;

  async function seed() {
    calls.length = 0;
    const { organization } = await createApiKey(store(), 'acme');
    await connectInstallation(store(), 'codehost', String(INSTALLATION), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { providerInstallationId: String(INSTALLATION), owner: 'Codertocat', name: 'Hello-World' });
    return { organizationId: organization.id, repositoryId };
  }

  async function post(body: unknown, deliveryId: string = randomUUID()): Promise<string> {
    const signed = await signedDelivery(SECRET, 'push', body, deliveryId);
    const response = await fetch(`${service.api.base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
    return deliveryId;
  }

  const settled = (deliveryId: string, statuses = ['completed']) =>
    until(async () => {
      const receipt = await store().getRepository(WebhookReceipt).findOneBy({ deliveryId });
      return receipt && statuses.includes(receipt.status) ? receipt : undefined;
    });

  it('re-indexes once at the new head, however often and under however many delivery ids the push comes', async () => {
    const { organizationId, repositoryId } = await seed();
    const body = push(shaOf('a'), 1_767_000_000);

    // The same delivery twice, and redeliveries under new ids, handled by four worker slots at once.
    const ids = await Promise.all([post(body, 'push-a'), post(body, 'push-a'), post(body), post(body), post(body)]);
    await Promise.all([...new Set(ids)].map((id) => settled(id)));

    expect(calls).toEqual([{ organizationId, repositoryId, commitSha: shaOf('a') }]);
    expect(await store().getRepository(DefaultBranchPush).findBy({ repositoryId })).toEqual([expect.objectContaining({ commitSha: shaOf('a'), started: true })]);
  });

  it('starts nothing for a push delivered after a newer one, and re-indexes each newer head', async () => {
    const { repositoryId } = await seed();

    await settled(await post(push(shaOf('c'), 1_767_000_200)));
    await settled(await post(push(shaOf('b'), 1_767_000_100)));
    await settled(await post(push(shaOf('d'), 1_767_000_300)));

    expect(calls.map((call) => [call.repositoryId, call.commitSha])).toEqual([
      [repositoryId, shaOf('c')],
      [repositoryId, shaOf('d')],
    ]);
  });

  it('re-indexes nothing for other branches, tags, a deleted branch, a delivery not made through the app, or a repository not connected', async () => {
    await seed();

    const deliveries = [
      push(shaOf('e'), 1_767_000_400, { ref: 'refs/heads/feature' }),
      push(shaOf('e'), 1_767_000_400, { ref: 'refs/tags/v1.0.0' }),
      push(shaOf('e'), 1_767_000_400, { ref: 'refs/heads/master-old' }),
      push('0'.repeat(40), 1_767_000_400, { deleted: true }),
      push(shaOf('e'), 1_767_000_400, { installation: false }),
      { ...push(shaOf('e'), 1_767_000_400), repository: { ...(push(shaOf('e'), 0).repository as object), name: 'Other-Repo', default_branch: 'master', pushed_at: 1_767_000_400 } },
    ];
    for (const body of deliveries) await settled(await post(body));

    expect(calls).toEqual([]);
  });

  it('releases the claim when the re-index cannot start, so the retried delivery starts it once', async () => {
    const { repositoryId } = await seed();
    failNext = 1;

    const id = await post(push(shaOf('f'), 1_767_000_500));
    const failed = await settled(id, ['failed', 'completed']);
    expect(failed.status).toBe('failed');
    expect(await store().getRepository(DefaultBranchPush).countBy({ repositoryId })).toBe(0);

    // What the sweep does once the back-off is over: the same delivery, queued again.
    await settled(await post(push(shaOf('f'), 1_767_000_500), id));
    expect(calls.map((call) => call.commitSha)).toEqual([shaOf('f')]);
  });

  it('fails a push payload of the wrong shape with webhook.payload_invalid, re-indexing nothing', async () => {
    await seed();
    const body = { ...push(shaOf('a'), 1_767_000_600), after: 'not-a-sha' };

    const receipt = await settled(await post(body), ['failed', 'dead']);

    expect(receipt.lastError).toMatch(/^The push delivery is not a payload this service understands: after/);
    expect(calls).toEqual([]);
  });
});
