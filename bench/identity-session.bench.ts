/**
 * Identity session bench (issue 26): how long after the identity provider's last webhook does a person who signed in
 * and waits at `setup_required` read `ready`?
 *
 *   npm run bench:identity-session
 *
 * The service as `qa start` composes it (src/compose startAll: receiver, worker and API in one process) on
 * MySQL/MariaDB, with sign-in against the fake OpenID provider of the tests (a real HTTP server on loopback). For
 * each of BENCH_PEOPLE (40) people, BENCH_CONCURRENCY (4) at a time: sign in (real redirects and cookies), deliver
 * `user.created` and `organization.created` and wait until they are applied, then send the last one
 * (`organization_membership.created`) and poll `GET /api/session` every BENCH_POLL_MS (10) until it reads `ready`.
 * Measured from the moment the last delivery is sent:
 * - applied (peer, same run): until its receipt reads `completed` in the store (what the directory itself needs);
 * - ready (ours): until the person's session reads `ready` (the directory read a session does on each request).
 * It prints p50/p99/max of both and whether the goal holds (ready p99 < 1 s); it never fails on it. The database of
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_bench_identity_session) is dropped and created again.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { startAll, type RunningHttpRole } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { createApiKey } from '../src/identity/api-keys.js';
import { createLogger } from '../src/logger.js';
import { WebhookReceipt } from '../src/store/entities/webhook-receipt.entity.js';
import { openStore } from '../src/store/open-store.js';
import { startFakeIdentityProvider, type FakeIdentityProvider } from '../test/fakes/identity-provider.js';
import { identityEvent, identityObjects, sendIdentityDelivery, type IdentityEventBody } from '../test/support/identity-deliveries.js';
import { freePort, TestBrowser } from '../test/support/signed-in-browser.js';
import { intFromEnv } from './support/config.js';
import { freshBenchDatabase } from './support/database.js';
import { fmt, percentile, table } from './support/stats.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_bench_identity_session';
const PEOPLE = intFromEnv('BENCH_PEOPLE', 40);
const CONCURRENCY = intFromEnv('BENCH_CONCURRENCY', 4);
const POLL_MS = intFromEnv('BENCH_POLL_MS', 10);
const GOAL_P99_MS = 1_000;
const SECRET = randomBytes(24).toString('hex');

const watchdog = setTimeout(() => {
  console.error('bench: still running after 10 min, giving up');
  process.exit(1);
}, 10 * 60_000);
watchdog.unref();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let waited = 0; waited < 30_000; waited += POLL_MS) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(POLL_MS);
  }
  throw new Error(`bench: ${what} did not happen within 30 s`);
}

const { version } = await freshBenchDatabase(DATABASE_URL);
const artifactsDir = mkdtempSync(join(os.tmpdir(), 'qa-bench-identity-'));
let service: RunningHttpRole | undefined;
let dataSource: DataSource | undefined;
let idp: FakeIdentityProvider | undefined;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  idp = await startFakeIdentityProvider({ redirectUri: `${base}/auth/callback` });
  const config = loadConfig(
    {
      DATABASE_URL, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', LOG_FORMAT: 'json', ARTIFACTS_DIR: artifactsDir, PUBLIC_BASE_URL: base,
      IDENTITY_ISSUER_URL: idp.issuer, IDENTITY_CLIENT_ID: idp.clientId, IDENTITY_CLIENT_SECRET: idp.clientSecret, IDENTITY_WEBHOOK_SIGNING_SECRET: SECRET,
    },
    { isTTY: false },
  );
  const logger = createLogger(config.log, process.stderr);
  dataSource = await openStore(config, logger);
  service = await startAll(config, logger, { dataSource, readSecret: () => undefined });
  const store = dataSource;
  const provider = idp;

  const deliver = async (body: IdentityEventBody) => {
    const response = await sendIdentityDelivery(`${base}/api/webhooks/identity`, body, { secret: SECRET });
    if (response.status !== 202) throw new Error(`bench: delivery answered ${response.status}`);
  };
  const applied = (deliveryId: string) =>
    until(async () => ((await store.getRepository(WebhookReceipt).findOneBy({ provider: 'identity', deliveryId }))?.status === 'completed' ? true : undefined), `delivery ${deliveryId}`);

  const appliedMs: number[] = [];
  const readyMs: number[] = [];
  let signInLock: Promise<unknown> = Promise.resolve();
  const person = async (index: number) => {
    const user = `user_bench_${index}`;
    const slug = `bench-${index}`;
    await createApiKey(store, slug);
    const browser = new TestBrowser();
    // The fake provider signs in whoever it was told last: one sign-in at a time.
    const signedIn = signInLock.then(async () => {
      provider.signInAs({ sub: user, email: `${user}@example.test` });
      await browser.navigate(`${base}/auth/login`);
    });
    signInLock = signedIn;
    await signedIn;
    const at = '2026-12-06T10:00:00.000Z';
    for (const body of [
      identityEvent('user.created', identityObjects.user(user, at)),
      identityEvent('organization.created', identityObjects.organization(`org_${index}`, at, { external_id: slug })),
    ]) {
      await deliver(body);
      await applied(body.id);
    }
    if ((await browser.call(base, 'GET', '/api/session')).body.state !== 'setup_required') throw new Error('bench: ready before the membership');
    const last = identityEvent('organization_membership.created', identityObjects.membership(`om_${index}`, at, { user_id: user, organization_id: `org_${index}` }));
    const sentAt = performance.now();
    await deliver(last);
    const watchApplied = applied(last.id).then(() => appliedMs.push(performance.now() - sentAt));
    await until(async () => ((await browser.call(base, 'GET', '/api/session')).body.state === 'ready' ? true : undefined), `${user} ready`);
    readyMs.push(performance.now() - sentAt);
    await watchApplied;
  };

  console.log(`measuring ${PEOPLE} people, ${CONCURRENCY} at a time, polling every ${POLL_MS} ms…`);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < PEOPLE) await person(next++);
  }));

  const row = (name: string, values: number[]) => [name, String(values.length), fmt(percentile(values, 50)), fmt(percentile(values, 99)), fmt(Math.max(...values))];
  console.log(`\n${version}, ${os.cpus().length} cores; from the last webhook sent, ms:`);
  console.log(table(['', 'n', 'p50', 'p99', 'max'], [row('applied (peer: receipt completed)', appliedMs), row('ready (ours: session reads ready)', readyMs)], [false, true, true, true, true]));
  const p99 = percentile(readyMs, 99);
  console.log(`\nready p99 ÷ applied p99: ${fmt(p99 / percentile(appliedMs, 99), 2)}`);
  console.log(`goal ready p99 < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? 'met' : 'NOT met'} (${fmt(p99)} ms)`);
} finally {
  await service?.stop();
  await dataSource?.destroy();
  await idp?.close();
  rmSync(artifactsDir, { recursive: true, force: true });
}
