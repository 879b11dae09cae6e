/**
 * Identity bench (issue 26, first half): what does a durable receipt cost an identity delivery? Signed `user.updated`
 * deliveries (`t=…,v1=…`, a user of their own each) from BENCH_SENDERS (32) concurrent senders, every other one a
 * redelivery of an earlier delivery id with the same bytes, to the service's receiver and to a bare endpoint that
 * only checks the signature, in the same process and run.
 *
 *   npm run bench:identity
 *
 * - Ours: the service as `qa start` composes it (src/compose startAll) on MySQL/MariaDB with
 *   IDENTITY_WEBHOOK_SIGNING_SECRET set: `POST /api/webhooks/identity` answers 202 once the receipt and its
 *   `webhook-delivery` queue job are committed, and the job processors of this process apply each receipt to the
 *   access directory with the real identity handler (one transaction, row lock) meanwhile.
 * - Peer: a bare Express endpoint (bench/support/bare-identity-webhook.ts): raw body, the same signature check, 202.
 * - Two loads per receiver, BENCH_SECONDS (5) each after BENCH_WARMUP_SECONDS (1) not counted: closed loop (what the
 *   receiver sustains), then paced at BENCH_RATE (500) deliveries/s (latency from the due time: the goal's load). The
 *   sender runs in a child process (bench/support/delivery-load.ts), as the provider is elsewhere.
 * - After each of our phases the worker drains the receipts; then every distinct delivery must have become exactly
 *   one directory user and every receipt must be completed.
 *
 * Prints accepted/s and p50/p99/max for both, the ratios ours ÷ bare, the drain, and whether the goals hold (≥ 500
 * deliveries/s, p99 < 100 ms); it never fails on them. The database of BENCH_DATABASE_URL (default
 * mysql://root@127.0.0.1:3306/qa_bench_identity) is dropped and created again, so its name must contain "bench".
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { HttpServer } from '../src/api/server.js';
import { startAll, type RunningHttpRole } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { openStore } from '../src/store/open-store.js';
import { startBareIdentityWebhook } from './support/bare-identity-webhook.js';
import { intFromEnv } from './support/config.js';
import { freshBenchDatabase } from './support/database.js';
import { sendDeliveriesElsewhere, type DeliveryOrder, type DeliveryResult } from './support/delivery-load.js';
import { fmt, table } from './support/stats.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_bench_identity';
const SENDERS = intFromEnv('BENCH_SENDERS', 32);
const SECONDS = intFromEnv('BENCH_SECONDS', 5);
const WARMUP_SECONDS = intFromEnv('BENCH_WARMUP_SECONDS', 1);
const RATE = intFromEnv('BENCH_RATE', 500);
const DRAIN_SECONDS = intFromEnv('BENCH_DRAIN_SECONDS', 120);
const GOALS = { perSecond: 500, p99Ms: 100 };
const SECRET = randomBytes(24).toString('hex');
const IDENTITY_PATH = '/api/webhooks/identity';

if (SENDERS < 1 || SECONDS < 1 || RATE < 1) throw new Error('BENCH_SENDERS, BENCH_SECONDS and BENCH_RATE must be at least 1');

const watchdog = setTimeout(() => {
  console.error('bench: still running after 10 min, giving up');
  process.exit(1);
}, 10 * 60_000);
watchdog.unref();

interface Phase {
  receiver: 'bare' | 'ours';
  mode: DeliveryOrder['mode'];
  result: DeliveryResult;
}

async function phase(receiver: Phase['receiver'], url: string, mode: DeliveryOrder['mode'], prefix: string): Promise<Phase> {
  const result = await sendDeliveriesElsewhere({ url, secret: SECRET, mode, clients: SENDERS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, rate: RATE, prefix, provider: 'identity' });
  console.log(
    `  ${receiver} (${mode}): ${result.accepted}/${result.sent} accepted (${result.duplicates} redeliveries), ${fmt(result.perSecond, 0)}/s, ` +
      `p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, max ${fmt(result.max)} ms${result.errors ? `, ${result.errors} errors (${result.firstError})` : ''}`,
  );
  return { receiver, mode, result };
}

interface Drain {
  byStatus: Record<string, number>;
  seconds: number;
  drained: boolean;
}

async function receiptStatuses(dataSource: DataSource): Promise<Record<string, number>> {
  const rows = (await dataSource.query('SELECT status, COUNT(*) AS n FROM webhook_receipts GROUP BY status')) as { status: string; n: number | string }[];
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

async function drain(dataSource: DataSource): Promise<Drain> {
  const began = performance.now();
  let byStatus = await receiptStatuses(dataSource);
  const settled = () => Object.keys(byStatus).every((status) => status === 'completed' || status === 'dead');
  while (!settled() && performance.now() < began + DRAIN_SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    byStatus = await receiptStatuses(dataSource);
  }
  return { byStatus, seconds: (performance.now() - began) / 1000, drained: settled() };
}

const began = performance.now();
const { version } = await freshBenchDatabase(DATABASE_URL);
const artifactsDir = mkdtempSync(join(os.tmpdir(), 'qa-bench-identity-'));
let dataSource: DataSource | undefined;
let service: RunningHttpRole | undefined;
let bare: { url: string; server: HttpServer } | undefined;
try {
  const loaded = loadConfig(
    { DATABASE_URL, HOST: '127.0.0.1', LOG_LEVEL: 'error', LOG_FORMAT: 'json', ARTIFACTS_DIR: artifactsDir, IDENTITY_WEBHOOK_SIGNING_SECRET: SECRET },
    { isTTY: false },
  );
  const config = { ...loaded, http: { ...loaded.http, port: 0 } };
  const logger = createLogger(config.log, process.stderr);
  dataSource = await openStore(config, logger);
  service = await startAll(config, logger, { dataSource, readSecret: () => undefined });
  bare = await startBareIdentityWebhook(SECRET, config.http.host);
  const ours = `http://${config.http.host}:${service.port}${IDENTITY_PATH}`;

  console.log('measuring…');
  const phases: Phase[] = [];
  const drains: Drain[] = [];
  const sent = new Set<string>();
  for (const mode of ['closed', 'paced'] as const) {
    phases.push(await phase('bare', bare.url, mode, `bare-${mode}`));
    const measured = await phase('ours', ours, mode, `ours-${mode}`);
    phases.push(measured);
    for (const id of measured.result.deliveryIds) sent.add(id);
    console.log('  waiting for the workers to drain the receipts…');
    drains.push(await drain(dataSource));
  }
  const users = Number(((await dataSource.query('SELECT COUNT(*) AS n FROM directory_users')) as { n: number | string }[])[0]!.n);
  const last = drains.at(-1)!;
  const receipts = Object.values(last.byStatus).reduce((sum, n) => sum + n, 0);

  console.log('');
  console.log(`Identity bench: signed user.updated deliveries (${SENDERS} senders, every other one a redelivery), ${SECONDS} s per phase after ${WARMUP_SECONDS} s of warm-up`);
  console.log(`Server: ${version} | Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => fmt(load, 2)).join(' ')} | service (HTTP + worker) and the bare endpoint in this process; the sender in a child process`);
  console.log('');
  console.log(
    table(
      ['receiver', 'load', 'sent', 'redelivered', 'accepted', 'errors', 'accepted/s', 'p50 ms', 'p99 ms', 'max ms'],
      phases.map(({ receiver, mode, result }) => [
        receiver === 'ours' ? 'ours: POST /api/webhooks/identity' : 'bare: verify + 202',
        mode === 'closed' ? `closed loop, ${SENDERS} senders` : `paced ${RATE}/s`,
        String(result.sent), String(result.duplicates), String(result.accepted), String(result.errors),
        fmt(result.perSecond, 0), fmt(result.p50), fmt(result.p99), fmt(result.max),
      ]),
      [false, false, true, true, true, true, true, true, true, true],
    ),
  );
  const find = (receiver: Phase['receiver'], mode: Phase['mode']) => phases.find((candidate) => candidate.receiver === receiver && candidate.mode === mode)!.result;
  for (const mode of ['closed', 'paced'] as const) {
    const [o, b] = [find('ours', mode), find('bare', mode)];
    console.log(`  ${mode}: ours ÷ bare: accepted/s ${fmt(o.perSecond / b.perSecond, 2)}x, p50 ${fmt(o.p50 / b.p50, 2)}x, p99 ${fmt(o.p99 / b.p99, 2)}x`);
  }
  for (const [index, drained] of drains.entries()) {
    console.log(`  after our ${index === 0 ? 'closed-loop' : 'paced'} phase: ${drained.drained ? `drained ${fmt(drained.seconds, 1)} s after the load` : `NOT drained within ${DRAIN_SECONDS} s`} (${JSON.stringify(drained.byStatus)})`);
  }
  console.log(`  distinct deliveries answered 202: ${sent.size}; receipts: ${receipts}, completed: ${last.byStatus.completed ?? 0}; directory users written: ${users}`);
  const holds = (ok: boolean) => (ok ? 'HOLDS' : 'DOES NOT HOLD');
  const closed = find('ours', 'closed');
  const paced = find('ours', 'paced');
  const rateOk = closed.perSecond >= GOALS.perSecond && closed.errors === 0;
  const p99Ok = paced.p99 < GOALS.p99Ms && paced.errors === 0 && paced.perSecond >= RATE * 0.95;
  const onceOk = users === sent.size && receipts === sent.size && (last.byStatus.completed ?? 0) === receipts;
  console.log('');
  console.log('Goals:');
  console.log(`  ≥ ${GOALS.perSecond} deliveries/s accepted (closed loop): ${holds(rateOk)} (${fmt(closed.perSecond, 0)}/s)`);
  console.log(`  p99 < ${GOALS.p99Ms} ms at ${RATE}/s: ${holds(p99Ok)} (${fmt(paced.p99)} ms at ${fmt(paced.perSecond, 0)}/s achieved)`);
  console.log(`  every delivery applied to the directory once, every receipt completed: ${holds(onceOk)}`);
  console.log(`  => ${rateOk && p99Ok && onceOk ? 'ALL GOALS HOLD' : 'NOT ALL GOALS HOLD'}`);
  console.log(`(run took ${fmt((performance.now() - began) / 1000, 0)} s)`);
} finally {
  await bare?.server.close();
  await service?.stop();
  await dataSource?.destroy();
  rmSync(artifactsDir, { recursive: true, force: true });
}
// Agenda leaves a timer per finished run (its liveness check, never cleared), so the process would linger.
process.exit(0);
