import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { ReportedInstallation } from '../../src/store/entities/reported-installation.entity.js';
import { WebhookReceipt } from '../../src/store/entities/webhook-receipt.entity.js';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';
import { openStore } from '../../src/store/open-store.js';
import { WEBHOOK_SWEEP_JOB } from '../../src/workflows/webhook-delivery.js';
import { logLines, startQaWorker, type QaWorkerProcess } from '../support/backlog.js';
import { examplePayload, signedDelivery } from '../support/codehost-deliveries.js';
import { freshDatabaseConfig, testMysqlUrl } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { freePort, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

const SECRET = 'codehost-webhook-secret-for-lease-tests';
const INSTALLATION_ID = 5150;
const DELIVERY_ID = 'lease-e2e-delivery-1';
/**
 * The receipt lease, shortened by configuration from the spec's ten minutes: long enough that the checks on a live
 * lease (two sweeps and a redelivery, about a second) end well inside it, short enough to wait for it to expire.
 */
const LEASE_MS = 15_000;
const RECORDED = 'code-host installation recorded';

/** An `installation` `suspend` delivery of the installation, later than the state stored before it. */
function suspension(): Record<string, unknown> {
  const body = examplePayload('installation', 'suspend') as Record<string, unknown> & { installation: Record<string, unknown> };
  body.installation = { ...body.installation, id: INSTALLATION_ID, created_at: '2026-01-10T10:00:00Z', updated_at: '2026-01-11T09:00:00Z', suspended_at: '2026-01-11T09:00:00Z' };
  return body;
}

/**
 * A worker dying in the middle of a delivery, across real processes on MySQL: `qa serve` receives, two `qa worker`
 * processes process. The test holds a row lock on the installation the delivery is about, so the worker that takes
 * the receipt blocks inside the handler while it holds the receipt's lease; nothing in the service is made for the
 * test but the lease and sweep settings.
 */
describe('a code-host delivery whose worker is SIGKILLed mid-processing (qa serve, two qa worker)', () => {
  const databaseUrl = testMysqlUrl('_lease');
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-webhook-lease-'));
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ARTIFACTS_DIR: artifactsDir,
    QUEUE_POLL_INTERVAL_MS: '50',
    SHUTDOWN_GRACE_MS: '2000',
    CODEHOST_WEBHOOK_SECRET: SECRET,
    WEBHOOK_LEASE_MS: String(LEASE_MS),
    WEBHOOK_SWEEP_INTERVAL_MS: '200',
    // Queue locks of dead runs expire soon too: the killed worker's queue job is then run again by the survivor,
    // which must find the receipt's lease live and leave it. (The sweep run one worker claimed while the other was
    // starting used to stay locked for a lock lifetime: the other's every() took the lock's owner; see
    // SqlJobRepository.saveJob.)
    QUEUE_LOCK_LIFETIME_MS: '3000',
  };
  let store: DataSource;
  let lock: mysql.Connection | undefined;
  let serve: QaProcess | undefined;
  let base: string;
  const workers: QaWorkerProcess[] = [];

  beforeAll(async () => {
    store = await openStore({ database: await freshDatabaseConfig('mysql', '_lease') }, silentLogger());
    const port = await freePort();
    serve = spawnQa(['serve'], { ...env, PORT: String(port) });
    base = `http://127.0.0.1:${port}`;
    const started = await Promise.all([startQaWorker(env), startQaWorker(env)]);
    workers.push(...started);
    const running = serve;
    await until(() => running.run.stdout.includes('running; stop with SIGTERM or SIGINT') || running.child.exitCode !== null, 'qa serve to run', 60_000);
    if (running.child.exitCode !== null) throw new Error(`qa serve exited: ${running.run.stderr}`);
  }, 120_000);

  afterAll(async () => {
    await lock?.end().catch(() => undefined);
    for (const worker of workers) await worker.signal('SIGTERM');
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    await store?.destroy();
    rmSync(artifactsDir, { recursive: true, force: true });
  }, 60_000);

  const receipt = () => store.getRepository(WebhookReceipt).findOneByOrFail({ deliveryId: DELIVERY_ID });
  const installation = () => store.getRepository(ReportedInstallation).findOneByOrFail({ provider: 'codehost', providerInstallationId: String(INSTALLATION_ID) });
  async function post(body: unknown): Promise<{ status: number; receipt: string }> {
    const signed = await signedDelivery(SECRET, 'installation', body, DELIVERY_ID);
    const response = await fetch(`${base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    return { status: response.status, receipt: ((await response.json()) as { receipt: string }).receipt };
  }
  async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const sweepFinishedAt = async () => {
    const [row] = (await store.query('SELECT last_finished_at FROM agenda_jobs WHERE name = ?', [WEBHOOK_SWEEP_JOB])) as { last_finished_at: Date | null }[];
    return row?.last_finished_at ? new Date(row.last_finished_at).getTime() : 0;
  };

  it('leaves the live lease alone, then another worker takes the receipt over after the lease and processes it once', async () => {
    // Installed and active before; the test's open transaction holds the row, as a long write of another process would.
    await store.getRepository(ReportedInstallation).insert({
      provider: 'codehost', providerInstallationId: String(INSTALLATION_ID), accountLogin: 'Codertocat', accountType: 'User',
      repositorySelection: 'selected', status: 'active', reportedAt: new Date('2026-01-10T10:00:00Z'), updatedAt: new Date(),
    });
    const { host, port, user, password, database } = parseMysqlUrl(databaseUrl);
    lock = await mysql.createConnection({ host, port, user, password, database });
    await lock.query('START TRANSACTION');
    await lock.query('SELECT * FROM reported_installations WHERE provider = ? AND provider_installation_id = ? FOR UPDATE', ['codehost', String(INSTALLATION_ID)]);

    expect(await post(suspension())).toEqual({ status: 202, receipt: 'accepted' });
    // One worker takes the receipt and blocks in the handler, on the locked row, holding the lease.
    const taken = await eventually(async () => {
      const stored = await receipt();
      return stored.status === 'processing' ? stored : undefined;
    }, 'a worker to take the receipt');
    const holder = workers.find((worker) => taken.leaseOwner!.startsWith(`${hostname().slice(0, 40)}:${worker.pid}:`));
    const other = workers.find((worker) => worker !== holder)!;
    expect(holder).toBeDefined();
    expect(taken).toMatchObject({ attempts: 1, leaseExpiresAt: expect.any(Date) });

    // While the lease is live: two sweeps run and a redelivery of the same delivery is acknowledged and left alone.
    const sweptBefore = await sweepFinishedAt();
    const sweptOnce = await eventually(async () => ((await sweepFinishedAt()) > sweptBefore ? sweepFinishedAt() : undefined), 'a sweep').catch(async (error: unknown) => {
      const rows = await store.query('SELECT name, next_run_at, locked_at, last_run_at, last_finished_at, last_modified_by, repeat_interval, fail_reason FROM agenda_jobs');
      throw new Error(`${String(error)}\n${JSON.stringify(rows)}\nnow ${new Date().toISOString()}\n${workers.map((worker) => worker.qa.run.stdout.slice(-3000)).join('\n---\n')}`);
    });
    await eventually(async () => ((await sweepFinishedAt()) > sweptOnce ? true : undefined), 'a second sweep');
    expect(await post(suspension())).toEqual({ status: 202, receipt: 'in_progress' });
    const alone = await receipt();
    expect(alone.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(alone).toMatchObject({ status: 'processing', attempts: 1, leaseOwner: taken.leaseOwner, leaseExpiresAt: taken.leaseExpiresAt });
    expect(logLines(other.qa.run, RECORDED)).toEqual([]);
    expect(await installation()).toMatchObject({ status: 'active' });

    // The holder dies with no chance to clean up; the row is released.
    await holder!.signal('SIGKILL');
    await lock.query('COMMIT');

    // After the lease, the sweep of the surviving worker queues the receipt again and that worker completes it.
    const done = await eventually(async () => {
      const stored = await receipt();
      return stored.status === 'completed' ? stored : undefined;
    }, 'the receipt to be taken over and completed', LEASE_MS + 45_000);
    expect(done).toMatchObject({ attempts: 2, leaseOwner: null, leaseExpiresAt: null, lastError: null });
    expect(done.completedAt!.getTime()).toBeGreaterThanOrEqual(taken.leaseExpiresAt!.getTime());
    expect(await installation()).toMatchObject({ status: 'suspended', reportedAt: new Date('2026-01-11T09:00:00Z') });
    // Recorded once, by the survivor: the killed worker's blocked transaction never committed nor logged.
    expect(logLines(other.qa.run, RECORDED).filter((line) => line.deliveryId === DELIVERY_ID)).toHaveLength(1);
    expect(logLines(holder!.qa.run, RECORDED)).toEqual([]);
    // A late redelivery of the completed delivery changes nothing.
    expect(await post(suspension())).toEqual({ status: 202, receipt: 'duplicate' });
    expect(await receipt()).toMatchObject({ status: 'completed', attempts: 2 });
  }, 150_000);
});
