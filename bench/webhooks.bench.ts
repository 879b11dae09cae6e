/**
 * Webhooks bench (issue 14): what does a durable receipt cost a code-host delivery? Signed `pull_request` deliveries
 * from BENCH_SENDERS (32) concurrent senders, every other one a redelivery of an earlier delivery id with the same
 * body, to the service's receiver and to a bare endpoint that only checks the signature, in the same process and run.
 *
 *   npm run bench:webhooks
 *
 * - Ours: the service as `qa start` composes it (src/compose startAll) on MySQL/MariaDB: `POST /api/webhooks/codehost`
 *   answers 202 once the receipt and its `webhook-delivery` queue job are committed in one transaction, and the
 *   job processors of this process take each receipt under its lease and run the code-host handler, which the bench
 *   replaces (the compose override `webhookHandlers`) by one that counts its calls per delivery id.
 * - Peer: a bare Express endpoint (bench/support/bare-webhook.ts): raw body, Octokit's `verify`, 202.
 * - Two loads per receiver, each BENCH_SECONDS (8) after BENCH_WARMUP_SECONDS (1) not counted: closed loop (each
 *   sender posts its next delivery when the last is answered: what the receiver sustains), then paced at BENCH_RATE
 *   (500) deliveries/s over the same 32 connections (latency from the due time: the goal's load). The sender runs in a
 *   child process (bench/support/delivery-load.ts), as the code host is elsewhere.
 * - After each of our phases the worker drains the receipts; then every distinct delivery id must have been handled
 *   exactly once and every receipt must be completed.
 *
 * It prints accepted/s and p50/p99/max latency for both, the ratios ours ÷ bare, the drain, the number of deliveries
 * processed other than once (must be 0) and whether the goals hold (≥ 500 deliveries/s, p99 < 100 ms); it never
 * fails on them. The database of BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_bench_webhooks) is
 * dropped and created again, so its name must contain "bench".
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DataSource } from 'typeorm';
import { startAll, type RunningHttpRole } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import type { HttpServer } from '../src/api/server.js';
import { openStore } from '../src/store/open-store.js';
import { startBareWebhook } from './support/bare-webhook.js';
import { intFromEnv } from './support/config.js';
import { cpuBetween, sampleCpu, type CpuUse } from './support/cpu.js';
import { freshBenchDatabase } from './support/database.js';
import { sendDeliveriesElsewhere, type DeliveryOrder, type DeliveryResult } from './support/delivery-load.js';
import { fmt, table } from './support/stats.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_bench_webhooks';
const SENDERS = intFromEnv('BENCH_SENDERS', 32);
const SECONDS = intFromEnv('BENCH_SECONDS', 5);
const WARMUP_SECONDS = intFromEnv('BENCH_WARMUP_SECONDS', 1);
const RATE = intFromEnv('BENCH_RATE', 500);
/** How long the receipts may take to drain after a phase before the bench stops waiting. */
const DRAIN_SECONDS = intFromEnv('BENCH_DRAIN_SECONDS', 120);
const GOALS = { perSecond: 500, p99Ms: 100 };
const SECRET = randomBytes(24).toString('hex');
const CODEHOST_PATH = '/api/webhooks/codehost';

if (SENDERS < 1 || SECONDS < 1 || RATE < 1) throw new Error('BENCH_SENDERS, BENCH_SECONDS and BENCH_RATE must be at least 1');

const watchdog = setTimeout(() => {
  console.error('bench: still running after 10 min, giving up');
  process.exit(1);
}, 10 * 60_000);
watchdog.unref();

interface Phase {
  receiver: 'bare' | 'ours';
  load: string;
  result: DeliveryResult;
  cpu: CpuUse;
  loopDelayP99: number;
  /** CPU of this process over the phase and its warm-up per delivery answered in them, ms (ours: the worker's too). */
  cpuMsPerDelivery: number;
}

async function phase(receiver: Phase['receiver'], url: string, mode: DeliveryOrder['mode'], prefix: string): Promise<Phase> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const before = sampleCpu();
  const own = process.cpuUsage();
  const result = await sendDeliveriesElsewhere({ url, secret: SECRET, mode, clients: SENDERS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, rate: RATE, prefix });
  const cpu = cpuBetween(before, sampleCpu());
  const used = process.cpuUsage(own);
  loop.disable();
  const load = mode === 'closed' ? `closed loop, ${SENDERS} senders` : `paced ${RATE}/s, ${SENDERS} connections`;
  console.log(
    `  ${receiver} (${load}): ${result.accepted}/${result.sent} accepted (${result.duplicates} redeliveries), ${fmt(result.perSecond, 0)}/s, ` +
      `p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, max ${fmt(result.max)} ms${result.errors ? `, ${result.errors} errors (${result.firstError})` : ''}`,
  );
  return { receiver, load, result, cpu, loopDelayP99: loop.percentile(99) / 1e6, cpuMsPerDelivery: (used.user + used.system) / 1000 / result.answeredAll };
}

// ---------------------------------------------------------------------------------------------------------------
// The receipts our phases stored, and what the workers made of them

interface Drain {
  receipts: number;
  completed: number;
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
  const deadline = began + DRAIN_SECONDS * 1000;
  let byStatus = await receiptStatuses(dataSource);
  const settled = () => Object.entries(byStatus).every(([status]) => status === 'completed' || status === 'dead');
  while (!settled() && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    byStatus = await receiptStatuses(dataSource);
  }
  const receipts = Object.values(byStatus).reduce((sum, n) => sum + n, 0);
  return { receipts, completed: byStatus.completed ?? 0, byStatus, seconds: (performance.now() - began) / 1000, drained: settled() };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface Checks {
  distinct: number;
  otherThanOnce: number;
  /** A few of them, to show what went wrong. */
  examples: string[];
  drains: Drain[];
}

function report(phases: Phase[], checks: Checks, context: { version: string }): void {
  console.log('');
  console.log(
    `Webhooks bench: signed pull_request deliveries (${SENDERS} senders, every other one a redelivery of an earlier id with the same body), ` +
      `${SECONDS} s per phase after ${WARMUP_SECONDS} s of warm-up not counted`,
  );
  console.log(
    `Server: ${context.version} | Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => fmt(load, 2)).join(' ')} | ` +
      'service (HTTP + worker) and the bare endpoint in this process; the sender in a child process',
  );
  console.log('');
  console.log(
    table(
      ['receiver', 'load', 'sent', 'redelivered', 'accepted', 'errors', 'accepted/s', 'p50 ms', 'p99 ms', 'max ms', 'loop delay p99 ms', 'CPU ms/delivery', 'cores: bench', 'cores: database'],
      phases.map(({ receiver, load, result, cpu, loopDelayP99, cpuMsPerDelivery }) => [
        receiver === 'ours' ? 'ours: POST /api/webhooks/codehost' : 'bare: verify + 202',
        load,
        String(result.sent),
        String(result.duplicates),
        String(result.accepted),
        String(result.errors),
        fmt(result.perSecond, 0),
        fmt(result.p50),
        fmt(result.p99),
        fmt(result.max),
        fmt(loopDelayP99),
        fmt(cpuMsPerDelivery, 2),
        fmt(cpu.tree / cpu.wallSeconds, 2),
        fmt(cpu.database / cpu.wallSeconds, 2),
      ]),
      [false, false, true, true, true, true, true, true, true, true, true, true, true, true],
    ),
  );
  for (const load of ['closed', 'paced']) {
    const bare = phases.find((candidate) => candidate.receiver === 'bare' && candidate.load.startsWith(load))!.result;
    const ours = phases.find((candidate) => candidate.receiver === 'ours' && candidate.load.startsWith(load))!.result;
    console.log(
      `  ${load}: ours ÷ bare: accepted/s ${fmt(ours.perSecond / bare.perSecond, 2)}x, p50 ${fmt(ours.p50 / bare.p50, 2)}x, p99 ${fmt(ours.p99 / bare.p99, 2)}x`,
    );
  }
  console.log('  (CPU ms/delivery: this process over the phase and its warm-up; ours includes its worker processing receipts meanwhile)');
  const outcomes = phases.filter((candidate) => candidate.receiver === 'ours').map((candidate) => JSON.stringify(candidate.result.outcomes));
  console.log(`  our answers' receipt outcomes (warm-up included), closed then paced: ${outcomes.join(', ')}`);
  console.log('');
  console.log('Processing (the worker in this process; the handler counts its calls per delivery id)');
  for (const [index, drained] of checks.drains.entries()) {
    console.log(
      `  after our ${index === 0 ? 'closed-loop' : 'paced'} phase: ${drained.drained ? `drained ${fmt(drained.seconds, 1)} s after the load` : `NOT drained ${DRAIN_SECONDS} s after the load`}; ` +
        `receipts so far ${drained.receipts} (${JSON.stringify(drained.byStatus)})`,
    );
  }
  const last = checks.drains.at(-1)!;
  console.log(`  distinct deliveries answered 202: ${checks.distinct}; receipts: ${last.receipts}, completed: ${last.completed}`);
  console.log(`  deliveries processed other than once: ${checks.otherThanOnce}${checks.examples.length ? ` (e.g. ${checks.examples.join(', ')})` : ''}`);
  const holds = (ok: boolean) => (ok ? 'HOLDS' : 'DOES NOT HOLD');
  const closed = phases.find((candidate) => candidate.receiver === 'ours' && candidate.load.startsWith('closed'))!.result;
  const paced = phases.find((candidate) => candidate.receiver === 'ours' && candidate.load.startsWith('paced'))!.result;
  const rateOk = closed.perSecond >= GOALS.perSecond && closed.errors === 0;
  const p99Ok = paced.p99 < GOALS.p99Ms && paced.errors === 0 && paced.perSecond >= RATE * 0.95;
  const onceOk = checks.otherThanOnce === 0 && last.completed === last.receipts && last.receipts === checks.distinct;
  console.log('');
  console.log('Goals:');
  console.log(`  ≥ ${GOALS.perSecond} deliveries/s accepted (closed loop): ${holds(rateOk)} (${fmt(closed.perSecond, 0)}/s)`);
  console.log(`  p99 < ${GOALS.p99Ms} ms at ${RATE}/s: ${holds(p99Ok)} (${fmt(paced.p99)} ms at ${fmt(paced.perSecond, 0)}/s achieved)`);
  console.log(`  every delivery processed exactly once, every receipt completed: ${holds(onceOk)}`);
  console.log(`  => ${rateOk && p99Ok && onceOk ? 'ALL GOALS HOLD' : 'NOT ALL GOALS HOLD'}`);
}

// ---------------------------------------------------------------------------------------------------------------

const began = performance.now();
const { version } = await freshBenchDatabase(DATABASE_URL);
const artifactsDir = mkdtempSync(join(os.tmpdir(), 'qa-bench-webhooks-'));
let dataSource: DataSource | undefined;
let service: RunningHttpRole | undefined;
let bare: { url: string; server: HttpServer } | undefined;
try {
  const loaded = loadConfig(
    { DATABASE_URL, HOST: '127.0.0.1', LOG_LEVEL: 'error', LOG_FORMAT: 'json', ARTIFACTS_DIR: artifactsDir, CODEHOST_WEBHOOK_SECRET: SECRET },
    { isTTY: false },
  );
  const config = { ...loaded, http: { ...loaded.http, port: 0 } };
  const logger = createLogger(config.log, process.stderr);
  dataSource = await openStore(config, logger);
  const handled = new Map<string, number>();
  service = await startAll(config, logger, {
    dataSource,
    readSecret: () => undefined,
    webhookHandlers: {
      codehost: async (receipt) => {
        handled.set(receipt.deliveryId, (handled.get(receipt.deliveryId) ?? 0) + 1);
      },
    },
  });
  bare = await startBareWebhook(SECRET, config.http.host);
  const ours = `http://${config.http.host}:${service.port}${CODEHOST_PATH}`;

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
  const otherThanOnce = [...sent].filter((id) => handled.get(id) !== 1);
  const strays = [...handled.keys()].filter((id) => !sent.has(id));
  report(
    phases,
    {
      distinct: sent.size,
      otherThanOnce: otherThanOnce.length + strays.length,
      examples: [...otherThanOnce, ...strays].slice(0, 3).map((id) => `${id}: ${handled.get(id) ?? 0}`),
      drains,
    },
    { version },
  );
  console.log(`(run took ${fmt((performance.now() - began) / 1000, 0)} s)`);
} finally {
  await bare?.server.close();
  await service?.stop();
  await dataSource?.destroy();
  rmSync(artifactsDir, { recursive: true, force: true });
}
// Agenda leaves a timer per finished run (its liveness check, never cleared), so the process would linger.
process.exit(0);
