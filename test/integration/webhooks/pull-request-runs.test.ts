import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { In, type DataSource } from 'typeorm';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createInstallationRecords } from '../../../src/repos/installation-records.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { PullRequestHead } from '../../../src/store/entities/pull-request-head.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import type { PullRequestSettings } from '../../../src/core/pull-request-settings.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { examplePayload, signedDelivery } from '../../support/codehost-deliveries.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { startPullRequestRuns } from '../../../src/webhooks/codehost/pull-request-runs.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';
import { useTestService } from '../../support/test-service.js';

const SECRET = 'codehost-webhook-secret-for-pull-request-tests';
const INSTALLATION = 42;
const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
/** A closed port: the runs these tests start fail at once (a worker whose browser cannot start). */
const BASE_URL = 'http://127.0.0.1:9';

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface PullRequestShape {
  action?: string;
  number?: number;
  sha?: string;
  updatedAt?: string;
  draft?: boolean;
  /** The head's repository (`owner/name`), or null for a deleted fork; default: the base repository. */
  headRepo?: string | null;
  installationId?: number;
}

/** A recorded `pull_request` payload of Codertocat/Hello-World, reshaped. */
function pullRequest(shape: PullRequestShape = {}): Record<string, unknown> {
  const action = shape.action ?? 'opened';
  const body = examplePayload('pull_request', action) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
  body.installation = { id: shape.installationId ?? INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  body.number = shape.number ?? 7;
  body.pull_request.number = shape.number ?? 7;
  body.pull_request.draft = shape.draft ?? false;
  body.pull_request.updated_at = shape.updatedAt ?? '2026-03-01T10:00:00Z';
  body.pull_request.head.sha = shape.sha ?? SHA_A;
  if (shape.headRepo === null) body.pull_request.head.repo = null;
  else body.pull_request.head.repo = { ...body.pull_request.base.repo, full_name: shape.headRepo ?? body.pull_request.base.repo.full_name };
  return body;
}

/** A recorded `deployment_status` payload, made a success of `sha` in `environment` at `url`. */
function deploymentStatus(sha: string, url: string, environment = 'preview', at = '2026-03-01T10:05:00Z'): Record<string, unknown> {
  const body = examplePayload('deployment_status') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
  body.installation = { id: INSTALLATION };
  body.deployment.sha = sha;
  body.deployment.environment = environment;
  body.deployment_status = { ...body.deployment_status, state: 'success', environment, environment_url: url, target_url: '', created_at: at, updated_at: at };
  return body;
}

/** Signed deliveries to the API under test, and the acme repository they are about. */
function codehostDeliveries(store: () => DataSource, apiBase: () => string) {
  async function post(event: string, body: unknown, deliveryId: string = randomUUID()): Promise<string> {
    const signed = await signedDelivery(SECRET, event, body, deliveryId);
    const response = await fetch(`${apiBase()}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
    return deliveryId;
  }

  /** Posts a signed delivery and waits until a worker has settled it (completed unless `settled` says otherwise). */
  async function deliver(event: string, body: unknown, settled: string[] = ['completed'], deliveryId: string = randomUUID()): Promise<WebhookReceipt> {
    await post(event, body, deliveryId);
    return settledReceipt(deliveryId, settled);
  }

  function settledReceipt(deliveryId: string, settled: string[] = ['completed']): Promise<WebhookReceipt> {
    return until(async () => {
      const receipt = await store().getRepository(WebhookReceipt).findOneBy({ deliveryId });
      return receipt && settled.includes(receipt.status) ? receipt : undefined;
    });
  }

  /** acme's Codertocat/Hello-World through installation 42, with two active checks and a draft one. */
  async function seed(settings?: Partial<PullRequestSettings>, baseUrl = BASE_URL) {
    const db = store();
    const { key, organization } = await createApiKey(db, 'acme');
    await connectInstallation(db, 'codehost', String(INSTALLATION), 'acme');
    const repositoryId = await insertRepository(db, organization.id, {
      providerInstallationId: String(INSTALLATION),
      owner: 'Codertocat',
      name: 'Hello-World',
      baseUrl,
      pullRequestSettings: settings ?? null,
    });
    const checks = [await insertCheck(db, organization.id, repositoryId, 'active', 'first'), await insertCheck(db, organization.id, repositoryId, 'active', 'second')];
    await insertCheck(db, organization.id, repositoryId, 'draft');
    return { key, organizationId: organization.id, repositoryId, checks: checks.sort() };
  }

  const jobs = () => store().getRepository(Job).find({ order: { checkId: 'ASC' } });

  return { post, deliver, settledReceipt, seed, jobs };
}

forEachDialect('pull-request runs from code-host deliveries', (dialect) => {
  // No browser: the runs started here fail at once and keep the worker free for deliveries.
  const service = useTestService(dialect, { api: { codehost: { webhookSecret: SECRET } }, worker: { concurrency: 4, executablePath: '/nonexistent/chromium' } });
  const { store } = service;
  const api = () => service.api;

  const { post, deliver, settledReceipt, seed, jobs } = codehostDeliveries(store, () => api().base);

  it('replays every active check at the head of an opened pull request, naming the pull request', async () => {
    const { organizationId, repositoryId, checks } = await seed();

    await deliver('pull_request', pullRequest({ number: 7, sha: SHA_A }));

    const created = await jobs();
    expect(created.map((job) => job.checkId)).toEqual(checks);
    for (const job of created) {
      expect(job).toMatchObject({ organizationId, repositoryId, trigger: 'codehost', commitSha: SHA_A, baseUrl: BASE_URL, task: null });
      // No coverage links (none are composed here): every check runs, and its comment says why.
      const reason = 'every check ran: the repository has no coverage links yet';
      expect(job.channelContext).toEqual({
        channel: 'codehost', provider: 'codehost', installationId: INSTALLATION, owner: 'Codertocat', repo: 'Hello-World', pullNumber: 7, headSha: SHA_A,
        selection: { mode: 'all', reason, why: [reason], ran: 2, skipped: 0 },
      });
      expect(job.sourceKey).toBe(`pr:${repositoryId}:7:${SHA_A}:${job.checkId}`);
    }
  });

  it('starts one run per check from a delivery posted 20 times at once, its redeliveries and a reopen at the same head', async () => {
    const { checks } = await seed();
    const body = pullRequest({ number: 8, sha: SHA_A });

    const signed = await signedDelivery(SECRET, 'pull_request', body, 'pr-8-delivery');
    const responses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${api().base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(202));
    // Redeliveries under new ids, processed at once, and a close-and-reopen at the same head.
    const redeliveries = await Promise.all([post('pull_request', body), post('pull_request', body), post('pull_request', body)]);
    await Promise.all(['pr-8-delivery', ...redeliveries].map((id) => settledReceipt(id)));
    await deliver('pull_request', pullRequest({ action: 'reopened', number: 8, sha: SHA_A, updatedAt: '2026-03-01T11:00:00Z' }));

    expect((await jobs()).map((job) => job.checkId)).toEqual(checks);
  });

  it('starts no stale run for a synchronize older than the head already run', async () => {
    await seed();
    await deliver('pull_request', pullRequest({ action: 'synchronize', sha: SHA_B, updatedAt: '2026-03-01T12:00:00Z' }));

    await deliver('pull_request', pullRequest({ action: 'synchronize', sha: SHA_A, updatedAt: '2026-03-01T11:00:00Z' }));

    const created = await jobs();
    expect(created).toHaveLength(2);
    expect(created.map((job) => job.commitSha)).toEqual([SHA_B, SHA_B]);
  });

  it('does not run a pull request from a fork unless runForks is on', async () => {
    const { repositoryId } = await seed();
    await deliver('pull_request', pullRequest({ number: 9, headRepo: 'mallory/Hello-World' }));
    await deliver('pull_request', pullRequest({ number: 10, headRepo: null }));
    expect(await jobs()).toEqual([]);

    await store().getRepository(ConnectedRepository).update({ id: repositoryId }, { pullRequestSettings: { runForks: true } });
    await deliver('pull_request', pullRequest({ action: 'synchronize', number: 9, sha: SHA_B, headRepo: 'mallory/Hello-World', updatedAt: '2026-03-01T11:00:00Z' }));

    expect((await jobs()).map((job) => [job.commitSha, (job.channelContext as { pullNumber: number }).pullNumber])).toEqual([
      [SHA_B, 9],
      [SHA_B, 9],
    ]);
  });

  it('skips a draft until it is ready for review', async () => {
    await seed();
    await deliver('pull_request', pullRequest({ draft: true }));
    expect(await jobs()).toEqual([]);

    await deliver('pull_request', pullRequest({ action: 'ready_for_review', updatedAt: '2026-03-01T10:30:00Z' }));

    expect(await jobs()).toHaveLength(2);
  });

  it('runs at the preview template filled with the number and head', async () => {
    await seed({ previewUrlTemplate: 'http://pr-{number}.preview.invalid/{sha}/' });

    await deliver('pull_request', pullRequest({ number: 12, sha: SHA_B }));

    expect((await jobs()).map((job) => job.baseUrl)).toEqual([`http://pr-12.preview.invalid/${SHA_B}/`, `http://pr-12.preview.invalid/${SHA_B}/`]);
  });

  it('waits for the deployment of the head when the repository says so, in either order', async () => {
    await seed({ waitForDeployment: true, deploymentEnvironment: 'Preview', previewUrlTemplate: 'https://pr-{number}.unused.invalid' });

    // The pull request first: nothing until its head is deployed (another environment does not count).
    await deliver('pull_request', pullRequest({ number: 20, sha: SHA_A }));
    await deliver('deployment_status', deploymentStatus(SHA_A, 'http://staging.invalid/', 'staging'));
    expect(await jobs()).toEqual([]);
    await deliver('deployment_status', deploymentStatus(SHA_A, 'http://pr-20.deploy.invalid/'));
    expect((await jobs()).map((job) => [job.baseUrl, job.commitSha])).toEqual([
      ['http://pr-20.deploy.invalid/', SHA_A],
      ['http://pr-20.deploy.invalid/', SHA_A],
    ]);

    // The deployment first: the pull request event finds it.
    await deliver('deployment_status', deploymentStatus(SHA_B, 'http://pr-21.deploy.invalid/'));
    await deliver('pull_request', pullRequest({ number: 21, sha: SHA_B }));
    const second = (await jobs()).filter((job) => job.commitSha === SHA_B);
    expect(second.map((job) => job.baseUrl)).toEqual(['http://pr-21.deploy.invalid/', 'http://pr-21.deploy.invalid/']);

    // A redelivered deployment starts nothing more; a deployment URL with credentials is not recorded.
    await deliver('deployment_status', deploymentStatus(SHA_A, 'http://pr-20.deploy.invalid/'));
    await deliver('pull_request', pullRequest({ action: 'synchronize', number: 22, sha: 'c'.repeat(40) }));
    await deliver('deployment_status', deploymentStatus('c'.repeat(40), 'http://user:secret@pr-22.invalid/'));
    expect(await jobs()).toHaveLength(4);
  });

  it('runs nothing when the head of a closed pull request is deployed, whatever arrives late, until it is reopened', async () => {
    const { repositoryId } = await seed({ waitForDeployment: true, deploymentEnvironment: 'Preview' });
    const head = () => store().getRepository(PullRequestHead).findOneByOrFail({ repositoryId, pullNumber: 30 });
    await deliver('pull_request', pullRequest({ number: 30, sha: SHA_A, updatedAt: '2026-03-01T10:00:00Z' }));
    await deliver('pull_request', pullRequest({ action: 'closed', number: 30, sha: SHA_A, updatedAt: '2026-03-01T10:10:00Z' }));
    // An event from before the close, delivered after it, does not open it again.
    await deliver('pull_request', pullRequest({ action: 'synchronize', number: 30, sha: SHA_A, updatedAt: '2026-03-01T10:05:00Z' }));
    expect(await head()).toMatchObject({ headSha: SHA_A, closed: true });

    await deliver('deployment_status', deploymentStatus(SHA_A, 'http://pr-30.deploy.invalid/'));
    expect(await jobs()).toEqual([]);

    // Reopened: the deployment already recorded starts its runs; a close from before the reopen changes nothing.
    await deliver('pull_request', pullRequest({ action: 'reopened', number: 30, sha: SHA_A, updatedAt: '2026-03-01T10:20:00Z' }));
    await deliver('pull_request', pullRequest({ action: 'closed', number: 30, sha: SHA_A, updatedAt: '2026-03-01T10:15:00Z' }));
    expect(await head()).toMatchObject({ closed: false });
    expect((await jobs()).map((job) => [job.baseUrl, job.commitSha])).toEqual([
      ['http://pr-30.deploy.invalid/', SHA_A],
      ['http://pr-30.deploy.invalid/', SHA_A],
    ]);
  });

  it('runs nothing for a suspended installation, a repository that is not connected, or an event from outside the app', async () => {
    await seed();
    // A repository webhook's delivery (no installation) is complete without effect, not malformed.
    const { installation: _installation, ...outsideTheApp } = pullRequest({ number: 29 });
    await deliver('pull_request', outsideTheApp);
    await deliver('pull_request', pullRequest({ installationId: 555 }));
    const other = pullRequest({ number: 30 }) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
    other.repository = { ...other.repository, name: 'Other-Repo' };
    await deliver('pull_request', other);
    await createInstallationRecords({ dataSource: store(), provider: 'codehost' }).apply({
      installationId: String(INSTALLATION),
      account: { login: 'Codertocat', type: 'User' },
      repositorySelection: 'all',
      status: 'suspended',
      reportedAt: new Date('2026-03-01T09:00:00Z'),
      added: [],
      removed: [],
    });
    await deliver('pull_request', pullRequest({ number: 31 }));

    expect(await jobs()).toEqual([]);
  });

  it('never runs another organization’s repository of the same name', async () => {
    const { organizationId } = await seed();
    const { organization: other } = await createApiKey(store(), 'other');
    await connectInstallation(store(), 'codehost', '77', 'other');
    const otherRepository = await insertRepository(store(), other.id, { providerInstallationId: '77', owner: 'Codertocat', name: 'Hello-World', baseUrl: BASE_URL });
    await insertCheck(store(), other.id, otherRepository, 'active');

    await deliver('pull_request', pullRequest({ number: 40 }));

    const created = await jobs();
    expect(created).toHaveLength(2);
    expect(created.every((job) => job.organizationId === organizationId)).toBe(true);
  });

  it('fails the receipt of a malformed pull_request payload, starting nothing', async () => {
    await seed();
    const body = pullRequest();
    (body.pull_request as Record<string, unknown>).head = { sha: 'not-a-sha' };

    const receipt = await deliver('pull_request', body, ['failed', 'dead']);

    expect(receipt.lastError).toMatch(/pull_request delivery is not a payload this service understands: pull_request\.head\.sha/);
    expect(await jobs()).toEqual([]);
  });

  it('leaves the receipt failed while live execution is paused, and runs on redelivery once resumed', async () => {
    const { organizationId, checks } = await seed();
    await setCapabilityPaused(store(), 'live', true, organizationId);

    const receipt = await deliver('pull_request', pullRequest({ number: 50 }), ['failed']);
    expect(receipt.lastError).toMatch(/Live execution is paused/);
    expect(await jobs()).toEqual([]);

    await setCapabilityPaused(store(), 'live', false, organizationId);
    await deliver('pull_request', pullRequest({ number: 50 }), ['completed'], receipt.deliveryId);

    expect((await jobs()).map((job) => job.checkId)).toEqual(checks);
  });
});

/** A preview deployment that takes requests and never answers: a run there stays in its first navigation. */
async function startHangingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer(() => undefined);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

forEachDialect('pull-request runs a newer push or a close made pointless', (dialect) => {
  let api: TestApi | undefined;
  let worker: TestWorker | undefined;
  let preview: Awaited<ReturnType<typeof startHangingServer>> | undefined;
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await preview?.close();
  });
  const store = useTestStore(dialect);
  beforeAll(async () => {
    preview = await startHangingServer();
    api = await startTestApi(store(), { codehost: { webhookSecret: SECRET } });
    // A real browser, one run at a time: a run stays in its navigation (running) while the next waits (queued).
    worker = await startTestWorker(store(), { concurrency: 1, navigationTimeoutMs: 90_000 });
  });

  const { deliver, seed } = codehostDeliveries(store, () => api!.base);
  const byId = async (ids: string[]) => {
    const found = await store().getRepository(Job).findBy({ id: In(ids) });
    return ids.map((id) => found.find((job) => job.id === id)!);
  };
  const cancelledEvent = async (jobId: string) => (await store().getRepository(JobEvent).findOneByOrFail({ jobId, type: 'job.cancelled' })).data;

  it('cancels the unfinished runs of older heads on a push and all of them on a close, never a stale event’s, and runs again on reopen', async () => {
    const { key, repositoryId, checks } = await seed(undefined, preview!.url);
    const runsOf = async (sha: string) => (await store().getRepository(Job).find({ where: { repositoryId, commitSha: sha, trigger: 'codehost' }, order: { checkId: 'ASC' } }));

    await deliver('pull_request', pullRequest({ number: 60, sha: SHA_A, updatedAt: '2026-03-01T10:00:00Z' }));
    const atA = (await runsOf(SHA_A)).map((job) => job.id);
    expect(atA).toHaveLength(2);
    // One of them in the browser, the other waiting for the slot.
    await until(async () => (await byId(atA)).some((job) => job.status === 'running'));
    // A run somebody asked for through the API, on the same repository: not the pull request's to cancel.
    const asked = await callApi(api!.base, 'POST', '/api/jobs', { projectId: repositoryId, testId: checks[0], baseUrl: preview!.url, networkAllowlist: [], trigger: 'cli' }, key);
    expect(asked.status).toBe(202);
    const askedId = asked.body.jobId as string;

    // A push: both runs at A are cancelled, the running one stops and frees the slot; the runs at B start.
    await deliver('pull_request', pullRequest({ action: 'synchronize', number: 60, sha: SHA_B, updatedAt: '2026-03-01T10:10:00Z' }));
    expect((await byId(atA)).map((job) => [job.status, job.sourceKey])).toEqual([['cancelled', null], ['cancelled', null]]);
    for (const jobId of atA) {
      expect(await cancelledEvent(jobId)).toEqual({ reason: 'superseded', message: 'a newer commit (bbbbbbb) was pushed to the pull request' });
    }
    const atB = (await runsOf(SHA_B)).map((job) => job.id);
    expect(atB).toHaveLength(2);
    await until(async () => [...(await byId([...atB, askedId]))].some((job) => job.status === 'running'), 30_000);

    // A push delivered late (older than B) neither starts runs at A again nor cancels those at B.
    await deliver('pull_request', pullRequest({ action: 'synchronize', number: 60, sha: SHA_A, updatedAt: '2026-03-01T10:05:00Z' }));
    expect(await runsOf(SHA_A)).toHaveLength(2);
    expect((await byId(atB)).map((job) => job.status).every((status) => status === 'queued' || status === 'running')).toBe(true);

    // The close cancels every unfinished run of the pull request, once, and leaves the asked-for run alone.
    const close = pullRequest({ action: 'closed', number: 60, sha: SHA_B, updatedAt: '2026-03-01T10:20:00Z' });
    await deliver('pull_request', close);
    await deliver('pull_request', close);
    expect((await byId(atB)).map((job) => job.status)).toEqual(['cancelled', 'cancelled']);
    for (const jobId of atB) expect(await cancelledEvent(jobId)).toEqual({ reason: 'pull_request_closed', message: 'the pull request was closed' });
    expect(await store().getRepository(JobEvent).countBy({ jobId: In(atB), type: 'job.cancelled' })).toBe(2);
    expect(['queued', 'running']).toContain((await byId([askedId]))[0]!.status);

    // Reopened at the same head: its checks run again, as new runs under the head's source keys.
    await deliver('pull_request', pullRequest({ action: 'reopened', number: 60, sha: SHA_B, updatedAt: '2026-03-01T10:30:00Z' }));
    const reopened = (await runsOf(SHA_B)).filter((job) => !atB.includes(job.id));
    expect(reopened.map((job) => [job.checkId, job.status, job.sourceKey])).toEqual(
      checks.map((checkId) => [checkId, expect.stringMatching(/^(queued|running)$/), `pr:${repositoryId}:60:${SHA_B}:${checkId}`]),
    );

    // Tidy: nothing left in the browser when the worker stops.
    for (const jobId of [askedId, ...reopened.map((job) => job.id)]) await callApi(api!.base, 'POST', `/api/jobs/${jobId}/cancel`, undefined, key);
  }, 120_000);
  it('cancels the runs a deployment started while the pull request was being closed (the close found none to cancel)', async () => {
    const { organizationId, repositoryId } = await seed(undefined, preview!.url);
    await deliver('pull_request', pullRequest({ number: 61, sha: SHA_A, updatedAt: '2026-03-01T10:00:00Z', draft: true }));
    // The deployment handler read the pull request as open at A; then the close was recorded and found no run.
    await deliver('pull_request', pullRequest({ action: 'closed', number: 61, sha: SHA_A, updatedAt: '2026-03-01T10:10:00Z' }));
    const repository = { id: repositoryId, baseUrl: preview!.url, networkAllowlist: [], pullRequestSettings: null };
    const request = { organizationId, repository, installationId: INSTALLATION, owner: 'Codertocat', repo: 'Hello-World', number: 61, headSha: SHA_A, baseUrl: preview!.url };
    const deps = { dataSource: store(), jobs: api!.jobs, findRepository: async () => ({ kind: 'not_connected' as const, reason: 'unused' }) };
    const lines: string[] = [];
    await startPullRequestRuns(deps, request, { logger: { info: (_fields, message) => lines.push(message), warn: (_fields, message) => lines.push(message) } });

    const runs = await store().getRepository(Job).find({ where: { repositoryId, trigger: 'codehost' } });
    expect(runs.map((job) => job.status)).toEqual(['cancelled', 'cancelled']);
    for (const job of runs) expect(await cancelledEvent(job.id)).toEqual({ reason: 'pull_request_closed', message: 'the pull request was closed' });
    expect(lines).toContain('pull request closed or pushed to while its runs were started; those runs cancelled');
  });
});
