import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { DirectoryUser } from '../../src/store/entities/directory-user.entity.js';
import { WebhookReceipt } from '../../src/store/entities/webhook-receipt.entity.js';
import { parseMysqlUrl } from '../../src/store/mysql-url.js';
import { openStore } from '../../src/store/open-store.js';
import { logLines, startQaWorker, type QaWorkerProcess } from '../support/backlog.js';
import { freshDatabaseConfig, testMysqlUrl } from '../support/databases.js';
import { identityEvent, identityObjects, sendIdentityDelivery } from '../support/identity-deliveries.js';
import { silentLogger } from '../support/logger.js';
import { freePort, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

const SECRET = 'identity-webhook-secret-for-lease-tests';
const DELIVERY_ID = 'identity-lease-e2e-delivery-1';
const USER_ID = 'user_lease';
/** The receipt lease, shortened by configuration from the spec's ten minutes (as in webhook-lease.test.ts). */
const LEASE_MS = 15_000;
const APPLIED = 'access directory updated';

const UPDATE = identityEvent('user.updated', identityObjects.user(USER_ID, '2026-12-01T10:05:00.000Z', { email: 'lease@acme.test', name: 'After the takeover' }), {
  id: 'event_lease_update',
  createdAt: '2026-12-01T10:05:01.000Z',
});

/**
 * A worker dying while it applies an identity delivery, across real processes on MySQL: `qa serve` receives, two
 * `qa worker` processes process. The test holds the directory user's row lock, so the worker that takes the receipt
 * blocks inside the directory write (its `SELECT … FOR UPDATE`) while it holds the receipt's lease.
 */
describe('an identity delivery whose worker is SIGKILLed mid-processing (qa serve, two qa worker)', () => {
  const databaseUrl = testMysqlUrl('_idlease');
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-identity-lease-'));
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ARTIFACTS_DIR: artifactsDir,
    QUEUE_POLL_INTERVAL_MS: '50',
    SHUTDOWN_GRACE_MS: '2000',
    IDENTITY_WEBHOOK_SIGNING_SECRET: SECRET,
    WEBHOOK_LEASE_MS: String(LEASE_MS),
    WEBHOOK_SWEEP_INTERVAL_MS: '200',
    QUEUE_LOCK_LIFETIME_MS: '3000',
  };
  let store: DataSource;
  let lock: mysql.Connection | undefined;
  let serve: QaProcess | undefined;
  let url: string;
  const workers: QaWorkerProcess[] = [];

  beforeAll(async () => {
    store = await openStore({ database: await freshDatabaseConfig('mysql', '_idlease') }, silentLogger());
    const port = await freePort();
    serve = spawnQa(['serve'], { ...env, PORT: String(port) });
    url = `http://127.0.0.1:${port}/api/webhooks/identity`;
    workers.push(...(await Promise.all([startQaWorker(env), startQaWorker(env)])));
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
  const user = () => store.getRepository(DirectoryUser).findOneByOrFail({ id: USER_ID });
  async function post(): Promise<{ status: number; receipt: string }> {
    const response = await sendIdentityDelivery(url, UPDATE, { secret: SECRET, deliveryId: DELIVERY_ID });
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

  it('leaves the live lease alone, then another worker takes the receipt over after the lease and applies it once', async () => {
    await store.getRepository(DirectoryUser).insert({
      id: USER_ID, email: 'lease@acme.test', emailVerified: true, name: 'Before', sourceUpdatedAt: new Date('2026-12-01T10:00:00.000Z'),
      deliveryCreatedAt: new Date('2026-12-01T10:00:01.000Z'), eventId: 'event_lease_created', deletedAt: null,
    });
    const { host, port, user: dbUser, password, database } = parseMysqlUrl(databaseUrl);
    lock = await mysql.createConnection({ host, port, user: dbUser, password, database });
    await lock.query('START TRANSACTION');
    await lock.query('SELECT * FROM directory_users WHERE id = ? FOR UPDATE', [USER_ID]);

    expect(await post()).toEqual({ status: 202, receipt: 'accepted' });
    const taken = await eventually(async () => {
      const stored = await receipt();
      return stored.status === 'processing' ? stored : undefined;
    }, 'a worker to take the receipt');
    const holder = workers.find((worker) => taken.leaseOwner!.startsWith(`${hostname().slice(0, 40)}:${worker.pid}:`));
    const other = workers.find((worker) => worker !== holder)!;
    expect(holder).toBeDefined();
    expect(taken).toMatchObject({ provider: 'identity', event: 'user.updated', attempts: 1 });

    // While the lease is live, a redelivery is acknowledged and left alone, and the survivor does not take it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await post()).toEqual({ status: 202, receipt: 'in_progress' });
    expect(await receipt()).toMatchObject({ status: 'processing', attempts: 1, leaseOwner: taken.leaseOwner });
    expect(logLines(other.qa.run, APPLIED)).toEqual([]);
    expect(await user()).toMatchObject({ name: 'Before' });

    await holder!.signal('SIGKILL');
    await lock.query('COMMIT');

    const done = await eventually(async () => {
      const stored = await receipt();
      return stored.status === 'completed' ? stored : undefined;
    }, 'the receipt to be taken over and completed', LEASE_MS + 45_000);
    expect(done).toMatchObject({ attempts: 2, leaseOwner: null, lastError: null });
    expect(done.completedAt!.getTime()).toBeGreaterThanOrEqual(taken.leaseExpiresAt!.getTime());
    expect(await user()).toMatchObject({ name: 'After the takeover', eventId: 'event_lease_update', deletedAt: null });
    expect(logLines(other.qa.run, APPLIED).filter((line) => line.deliveryId === DELIVERY_ID)).toHaveLength(1);
    expect(logLines(holder!.qa.run, APPLIED)).toEqual([]);
    expect(await post()).toEqual({ status: 202, receipt: 'duplicate' });
  }, 150_000);
});
