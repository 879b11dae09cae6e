/**
 * Queue benchmark: our Agenda backend on MariaDB/MySQL against Agenda's official PostgreSQL backend.
 *
 *   npm run bench:queue [-- --jobs N]        (or BENCH_JOBS=N)
 *
 * For each backend and for 1 and 2 worker processes (bench/support/worker-process.ts), the parent enqueues no-op
 * jobs and measures
 *   - throughput: jobs/s from the first enqueue to the last job completed (producer enqueueing flat out);
 *   - pickup latency: jobs enqueued at a steady pace to idle workers; time from `agenda.now()` resolving in the
 *     producer to the handler starting in a worker (p50, p99).
 * Notifications are on: the peer uses its LISTEN/NOTIFY, ours Agenda's Redis channel. One extra scenario measures
 * our pickup latency with notifications off (polling at processEvery). It prints figures, never fails on them.
 *
 * Other knobs (env): BENCH_PROCESS_EVERY, BENCH_MAX_CONCURRENCY, BENCH_CONCURRENCY, BENCH_LOCK_LIMIT,
 * BENCH_LATENCY_RATE (jobs/s), BENCH_LATENCY_SECONDS, BENCH_PRODUCER_INFLIGHT, BENCH_ONLY (e.g. "ours,peer,off"),
 * BENCH_MYSQL_URL, BENCH_PG_URL, BENCH_REDIS_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Agenda } from 'agenda';
import { createAgenda, createBackend } from './support/backends.js';
import { wallNow } from './support/clock.js';
import {
  endpointsFromEnv,
  intFromEnv,
  JOB_NAME,
  settingsFromEnv,
  type BackendKind,
  type NotifyKind,
  type WorkerConfig,
} from './support/config.js';
import type { JobData, ParentMessage, Phase, StorageStats, WorkerMessage } from './support/protocol.js';
import { fmt, percentile, table } from './support/stats.js';

// ---------------------------------------------------------------------------------------------------------------
// Parameters

function jobsFromArgs(): number {
  const index = process.argv.indexOf('--jobs');
  const raw = index >= 0 ? process.argv[index + 1] : process.argv.find((arg) => arg.startsWith('--jobs='))?.slice(7);
  if (raw === undefined) return intFromEnv('BENCH_JOBS', 5000);
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--jobs must be a positive integer, got "${raw}"`);
  return value;
}

const JOBS = jobsFromArgs();
const WARMUP_JOBS = 200;
const LATENCY_RATE = intFromEnv('BENCH_LATENCY_RATE', 200);
const LATENCY_SECONDS = intFromEnv('BENCH_LATENCY_SECONDS', 3);
const PRODUCER_INFLIGHT = intFromEnv('BENCH_PRODUCER_INFLIGHT', 8);
const settings = settingsFromEnv();
const endpoints = endpointsFromEnv();
const WORKER_FILE = fileURLToPath(new URL('./support/worker-process.ts', import.meta.url));

const TIMEOUTS = {
  workerReady: 30_000,
  warmup: 20_000,
  throughput: 60_000,
  latencyDrain: 15_000,
  workerExit: 10_000,
  /** The whole run; far above the ~2.5 min it takes, only there so that nothing can hang for ever. */
  total: 6 * 60_000,
};

interface Scenario {
  backend: BackendKind;
  notify: NotifyKind;
  workers: number;
  phases: Exclude<Phase, 'warmup'>[];
  label: string;
}

const LABELS: Record<string, string> = {
  'ours/redis': 'ours  MariaDB  notify=Redis pub/sub',
  'peer/pg': 'peer  Postgres notify=LISTEN/NOTIFY',
  'ours/off': 'ours  MariaDB  notify=OFF (polling)',
};

function scenarios(): Scenario[] {
  const only = (process.env.BENCH_ONLY ?? 'ours,peer,off').split(',').map((s) => s.trim());
  const list: Scenario[] = [];
  for (const workers of [1, 2]) {
    if (only.includes('ours')) list.push({ backend: 'ours', notify: 'redis', workers, phases: ['throughput', 'latency'], label: LABELS['ours/redis']! });
    if (only.includes('peer')) list.push({ backend: 'peer', notify: 'pg', workers, phases: ['throughput', 'latency'], label: LABELS['peer/pg']! });
  }
  for (const workers of [1, 2]) {
    if (only.includes('off')) list.push({ backend: 'ours', notify: 'off', workers, phases: ['latency'], label: LABELS['ours/off']! });
  }
  return list;
}

// ---------------------------------------------------------------------------------------------------------------
// Children: spawned with `node --import tsx`, killed on any exit of the parent

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping workers`);
    process.exit(130);
  });
}
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${TIMEOUTS.total / 1000} s, giving up`);
  process.exit(1);
}, TIMEOUTS.total);
watchdog.unref();

interface Events {
  starts: Map<Phase, Map<number, number>>;
  completes: Map<Phase, Map<number, number>>;
  startsByWorker: Map<Phase, number[]>;
  duplicates: number;
  errors: string[];
}

function newEvents(): Events {
  return { starts: new Map(), completes: new Map(), startsByWorker: new Map(), duplicates: 0, errors: [] };
}

function bucket<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

class Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<number | null>;
  private readonly clockReplies = new Map<number, (worker: number) => void>();
  private readonly statsReplies = new Map<number, (stats: StorageStats) => void>();
  stopped: Extract<WorkerMessage, { type: 'stopped' }> | undefined;

  constructor(
    readonly index: number,
    config: WorkerConfig,
    events: Events,
  ) {
    this.child = spawn(process.execPath, ['--import', 'tsx', WORKER_FILE], {
      env: { ...process.env, BENCH_WORKER_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.add(this.child);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        children.delete(this.child);
        resolve(code);
      }),
    );
    this.ready = new Promise((resolve, reject) => {
      this.child.once('exit', (code) => reject(new Error(`worker ${index} exited with code ${code} before it was ready`)));
      this.child.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'ready':
            resolve();
            break;
          case 'clock':
            this.clockReplies.get(message.t0)?.(message.worker);
            break;
          case 'events':
            for (const [phase, seq, at] of message.starts) {
              const starts = bucket(events.starts, phase, () => new Map<number, number>());
              if (starts.has(seq)) events.duplicates++;
              else starts.set(seq, at);
              const byWorker = bucket(events.startsByWorker, phase, () => [0, 0]);
              byWorker[message.index] = (byWorker[message.index] ?? 0) + 1;
            }
            for (const [phase, seq, at] of message.completes) bucket(events.completes, phase, () => new Map()).set(seq, at);
            break;
          case 'agenda-error':
            events.errors.push(`worker ${message.index}: ${message.message}`);
            break;
          case 'stopped':
            this.stopped = message;
            break;
          case 'stats':
            this.statsReplies.get(message.token)?.(message.stats);
            this.statsReplies.delete(message.token);
            break;
          case 'bye':
            break;
        }
      });
    });
  }

  send(message: ParentMessage): void {
    if (this.child.connected) this.child.send(message);
  }

  /** Offset of the worker's clock against ours (ms), from the ping with the shortest round trip. */
  async clockOffset(samples = 7): Promise<{ offset: number; rtt: number }> {
    let best = { offset: Number.NaN, rtt: Number.POSITIVE_INFINITY };
    for (let i = 0; i < samples; i++) {
      const t0 = wallNow();
      const worker = await new Promise<number>((resolve) => {
        this.clockReplies.set(t0, resolve);
        this.send({ type: 'clock', t0 });
      });
      this.clockReplies.delete(t0);
      const t1 = wallNow();
      if (t1 - t0 < best.rtt) best = { offset: worker - (t0 + t1) / 2, rtt: t1 - t0 };
    }
    return best;
  }

  private nextToken = 0;
  async stats(): Promise<StorageStats> {
    const token = this.nextToken++;
    return new Promise((resolve) => {
      this.statsReplies.set(token, resolve);
      this.send({ type: 'stats', token });
    });
  }

  /** Asks the worker to stop Agenda and waits for the process to end by itself (it must: all connections closed). */
  async stop(): Promise<string | undefined> {
    this.send({ type: 'stop' });
    const code = await withTimeout(this.exited, TIMEOUTS.workerExit);
    if (code === undefined) {
      this.child.kill('SIGKILL');
      await this.exited;
      return `worker ${this.index} did not exit within ${TIMEOUTS.workerExit / 1000} s of stop (killed)`;
    }
    if (this.stopped && this.stopped.open.length > 0) {
      return `worker ${this.index} still had ${this.stopped.open.join(', ')} open after agenda.stop()`;
    }
    if (code !== 0) return `worker ${this.index} exited with code ${code}`;
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls until `done()` or the deadline; resolves with whether it got there. */
async function waitFor(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

/** Runs `task(i)` for i in [0, count) with at most `inflight` at a time. */
async function pool(count: number, inflight: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inflight, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

interface ServerCounters {
  statements: number;
  deadlocks: number;
  lockWaits: number;
}

class Admin {
  private constructor(
    private readonly my: mysql.Connection,
    private readonly pgClient: pg.Client,
  ) {}

  /** Creates the bench databases when missing and opens one admin connection to each. */
  static async open(): Promise<Admin> {
    const myUrl = new URL(endpoints.mysqlUrl);
    const myDb = myUrl.pathname.slice(1);
    const myServer = await mysql.createConnection({
      host: myUrl.hostname,
      port: Number(myUrl.port || 3306),
      user: decodeURIComponent(myUrl.username),
      password: decodeURIComponent(myUrl.password),
    });
    await myServer.query(`CREATE DATABASE IF NOT EXISTS \`${myDb}\``);
    await myServer.changeUser({ database: myDb });

    const pgUrl = new URL(endpoints.pgUrl);
    const pgDb = pgUrl.pathname.slice(1);
    const serverUrl = new URL(endpoints.pgUrl);
    serverUrl.pathname = '/postgres';
    const pgServer = new pg.Client({ connectionString: serverUrl.toString() });
    await pgServer.connect();
    const exists = await pgServer.query('SELECT 1 FROM pg_database WHERE datname = $1', [pgDb]);
    if (exists.rowCount === 0) await pgServer.query(`CREATE DATABASE "${pgDb}"`);
    await pgServer.end();
    const pgClient = new pg.Client({ connectionString: endpoints.pgUrl });
    await pgClient.connect();
    return new Admin(myServer, pgClient);
  }

  async clean(backend: BackendKind): Promise<void> {
    if (backend === 'ours') await this.my.query(`TRUNCATE TABLE \`${endpoints.table}\``);
    else await this.pgClient.query(`TRUNCATE TABLE "${endpoints.table}"`);
  }

  /**
   * Server-side counters: MariaDB's are server-wide (other clients count too), PostgreSQL's are for the bench
   * database only. `statements`: MariaDB `Questions` / PostgreSQL committed + rolled back transactions (each
   * autocommit statement, NOTIFY included, is one).
   */
  async counters(backend: BackendKind): Promise<ServerCounters> {
    if (backend === 'ours') {
      const [rows] = await this.my.query(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Innodb_deadlocks', 'Innodb_row_lock_waits')",
      );
      const map = new Map((rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, Number(r.Value)]));
      return { statements: map.get('Questions') ?? 0, deadlocks: map.get('Innodb_deadlocks') ?? 0, lockWaits: map.get('Innodb_row_lock_waits') ?? 0 };
    }
    const result = await this.pgClient.query(
      'SELECT xact_commit + xact_rollback AS statements, deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    const row = result.rows[0] as { statements: string; deadlocks: string };
    return { statements: Number(row.statements), deadlocks: Number(row.deadlocks), lockWaits: Number.NaN };
  }

  async versions(): Promise<{ mysql: string; pg: string }> {
    const [rows] = await this.my.query('SELECT VERSION() AS v');
    const pgRows = await this.pgClient.query('SHOW server_version');
    return { mysql: String((rows as { v: string }[])[0]!.v), pg: String(pgRows.rows[0].server_version) };
  }

  async close(): Promise<void> {
    await this.my.end();
    await this.pgClient.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One scenario

interface Result {
  scenario: Scenario;
  throughput?: {
    jobsPerSec: number;
    seconds: number;
    enqueueSeconds: number;
    done: number;
    byWorker: number[];
    /** Server counter deltas over the phase, see Admin.counters. */
    server: ServerCounters;
  };
  latency?: { p50: number; p99: number; max: number; n: number; missing: number; byWorker: number[] };
  duplicates: number;
  errors: string[];
  notes: string[];
  clock: { offset: number; rtt: number }[];
  /** Storage calls made by the workers during each measured phase (summed over workers). */
  storage: Partial<Record<Phase, StorageStats & { jobs: number }>>;
  /** Timers each worker still had pending after `agenda.stop()` (see worker-process.ts). */
  leftTimers: number[];
}

const tag = (s: Scenario) => `[${s.backend}/${s.notify} ${s.workers}w]`;

async function runScenario(scenario: Scenario, admin: Admin): Promise<Result> {
  const events = newEvents();
  const result: Result = { scenario, duplicates: 0, errors: [], notes: [], clock: [], leftTimers: [], storage: {} };

  const producer: Agenda = createAgenda(createBackend(scenario.backend, scenario.notify, endpoints), settings, 'bench-producer');
  await producer.ready; // the backend creates its table on connect
  await producer.start(); // connects the notification channel so that `now()` publishes; no job is defined here
  await admin.clean(scenario.backend);

  const workers: Worker[] = [];
  try {
    for (let index = 0; index < scenario.workers; index++) {
      const config: WorkerConfig = { index, backend: scenario.backend, notify: scenario.notify, settings, endpoints, jobName: JOB_NAME };
      workers.push(new Worker(index, config, events));
    }
    const ready = await withTimeout(Promise.all(workers.map((w) => w.ready)), TIMEOUTS.workerReady);
    if (!ready) throw new Error(`workers not ready within ${TIMEOUTS.workerReady / 1000} s`);
    for (const worker of workers) result.clock.push(await worker.clockOffset());

    const enqueue = (phase: Phase, seq: number) => producer.now<JobData>(JOB_NAME, { phase, seq });
    const counted = (map: Map<Phase, Map<number, number>>, phase: Phase) => map.get(phase)?.size ?? 0;

    // Warm-up: connections, JIT, notification subscriptions, buffer pool.
    await pool(WARMUP_JOBS, PRODUCER_INFLIGHT, async (i) => void (await enqueue('warmup', i)));
    if (!(await waitFor(() => counted(events.completes, 'warmup') >= WARMUP_JOBS, TIMEOUTS.warmup))) {
      result.notes.push(`warm-up: only ${counted(events.completes, 'warmup')}/${WARMUP_JOBS} jobs completed`);
    }
    await sleep(2 * settings.processEvery); // let every fill loop and poll settle before the table is emptied
    await admin.clean(scenario.backend);

    const snapshot = async (): Promise<StorageStats> => sumStats(await Promise.all(workers.map((w) => w.stats())));

    if (scenario.phases.includes('throughput')) {
      const before = await snapshot();
      const serverBefore = await admin.counters(scenario.backend);
      const t0 = wallNow();
      await pool(JOBS, PRODUCER_INFLIGHT, async (i) => void (await enqueue('throughput', i)));
      const enqueued = wallNow();
      const finished = await waitFor(() => counted(events.completes, 'throughput') >= JOBS, TIMEOUTS.throughput);
      await sleep(50); // last batch of events
      const completes = [...(events.completes.get('throughput')?.values() ?? [])];
      const done = completes.length;
      const last = completes.length ? Math.max(...completes) : wallNow();
      const seconds = (last - t0) / 1000;
      if (!finished) result.notes.push(`throughput: only ${done}/${JOBS} jobs completed within ${TIMEOUTS.throughput / 1000} s`);
      const throughputStorage = diffStats(await snapshot(), before);
      // PostgreSQL publishes its statistics about once a second.
      await sleep(Math.max(1100, 2 * settings.processEvery));
      const serverAfter = await admin.counters(scenario.backend);
      result.throughput = {
        jobsPerSec: done / seconds,
        seconds,
        enqueueSeconds: (enqueued - t0) / 1000,
        done,
        byWorker: events.startsByWorker.get('throughput')?.slice(0, scenario.workers) ?? [],
        server: {
          statements: serverAfter.statements - serverBefore.statements,
          deadlocks: serverAfter.deadlocks - serverBefore.deadlocks,
          lockWaits: serverAfter.lockWaits - serverBefore.lockWaits,
        },
      };
      result.storage.throughput = { ...throughputStorage, jobs: done };
      console.log(
        `${tag(scenario)} throughput: ${done} jobs in ${fmt(seconds, 2)} s = ${fmt(done / seconds, 0)} jobs/s ` +
          `(enqueue ${fmt(JOBS / ((enqueued - t0) / 1000), 0)} jobs/s; per worker ${result.throughput.byWorker.join('/')})`,
      );
      await admin.clean(scenario.backend);
    }

    if (scenario.phases.includes('latency')) {
      const total = LATENCY_RATE * LATENCY_SECONDS;
      const interval = 1000 / LATENCY_RATE;
      const enqueuedAt = new Map<number, number>();
      const pending: Promise<void>[] = [];
      const before = await snapshot();
      const begin = wallNow() + 20;
      for (let seq = 0; seq < total; seq++) {
        await sleep(begin + seq * interval - wallNow());
        pending.push(enqueue('latency', seq).then(() => void enqueuedAt.set(seq, wallNow())));
      }
      await Promise.all(pending);
      const drained = await waitFor(() => counted(events.starts, 'latency') >= total, TIMEOUTS.latencyDrain);
      await sleep(50);
      const starts = events.starts.get('latency') ?? new Map<number, number>();
      const latencies: number[] = [];
      for (const [seq, at] of enqueuedAt) {
        const started = starts.get(seq);
        if (started !== undefined) latencies.push(started - at);
      }
      result.storage.latency = { ...diffStats(await snapshot(), before), jobs: starts.size };
      if (!drained) result.notes.push(`latency: only ${starts.size}/${total} jobs started within ${TIMEOUTS.latencyDrain / 1000} s`);
      result.latency = {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: percentile(latencies, 100),
        n: latencies.length,
        missing: total - latencies.length,
        byWorker: events.startsByWorker.get('latency')?.slice(0, scenario.workers) ?? [],
      };
      console.log(
        `${tag(scenario)} pickup: p50 ${fmt(result.latency.p50)} ms, p99 ${fmt(result.latency.p99)} ms, ` +
          `max ${fmt(result.latency.max)} ms (n=${latencies.length}, per worker ${result.latency.byWorker.join('/')})`,
      );
    }
  } finally {
    for (const worker of workers) {
      const problem = await worker.stop();
      if (problem) result.notes.push(problem);
      if (worker.stopped) result.leftTimers.push(worker.stopped.leftTimers);
    }
    await producer.stop();
  }
  result.duplicates = events.duplicates;
  result.errors = events.errors;
  if (events.duplicates > 0) result.notes.push(`${events.duplicates} job(s) started more than once`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function report(results: Result[], versions: { mysql: string; pg: string }): void {
  const rows: string[][] = [];
  for (const r of results) {
    const s = r.scenario;
    if (r.throughput) {
      rows.push([s.label, String(s.workers), 'throughput (jobs/s)', fmt(r.throughput.jobsPerSec, 0),
        `${r.throughput.done} jobs in ${fmt(r.throughput.seconds, 2)} s, enqueue ${fmt(r.throughput.enqueueSeconds, 2)} s, ` +
          `per worker ${r.throughput.byWorker.join('/')}, ${fmt(r.throughput.server.statements / Math.max(1, r.throughput.done), 1)} ` +
          `server statements/job${s.backend === 'ours' ? ' (server-wide)' : ''}, deadlocks ${r.throughput.server.deadlocks}`]);
    }
    if (r.latency) {
      rows.push([s.label, String(s.workers), 'pickup p50 (ms)', fmt(r.latency.p50), `n=${r.latency.n}${r.latency.missing ? `, ${r.latency.missing} never started` : ''}`]);
      rows.push([s.label, String(s.workers), 'pickup p99 (ms)', fmt(r.latency.p99), `max ${fmt(r.latency.max)} ms`]);
    }
  }

  console.log('');
  console.log(`Queue bench: ${JOBS} jobs for throughput, ${LATENCY_RATE} jobs/s for ${LATENCY_SECONDS} s for pickup, ${WARMUP_JOBS} warm-up jobs`);
  console.log(
    `Agenda settings (both backends): processEvery=${settings.processEvery} ms, maxConcurrency=${settings.maxConcurrency}, ` +
      `defaultConcurrency=${settings.defaultConcurrency}, lockLimit=${settings.lockLimit}${settings.lockLimit === 0 ? ' (no limit)' : ''}, ` +
      `lockLifetime=default; producer ${PRODUCER_INFLIGHT} enqueues in flight; pools: 10 connections each (driver defaults; ours opens 4 more for claims)`,
  );
  console.log(`Servers: ${versions.mysql} | PostgreSQL ${versions.pg} | Redis ${endpoints.redisUrl}`);
  const offsets = results.flatMap((r) => r.clock);
  if (offsets.length) {
    const worst = offsets.reduce((a, b) => (Math.abs(b.offset) > Math.abs(a.offset) ? b : a));
    console.log(`Clock offset parent/worker: at most ${fmt(Math.abs(worst.offset), 3)} ms (ping rtt ${fmt(worst.rtt, 3)} ms)`);
  }
  console.log('');
  console.log(table(['backend', 'workers', 'metric', 'value', 'detail'], rows, [false, true, false, true, false]));

  const diagRows: string[][] = [];
  for (const r of results) {
    for (const phase of ['throughput', 'latency'] as const) {
      const d = r.storage[phase];
      if (!d || d.jobs === 0) continue;
      diagRows.push([
        `${r.scenario.label}`,
        String(r.scenario.workers),
        phase,
        fmt((d.claimsFound + d.claimsEmpty) / d.jobs, 2),
        fmt(d.claimsEmpty / d.jobs, 2),
        fmt(d.claimFoundMs / Math.max(1, d.claimsFound), 2),
        fmt(d.claimEmptyMs / Math.max(1, d.claimsEmpty), 2),
        fmt(d.saveStateMs / Math.max(1, d.saveStates), 2),
        fmt((d.claimFoundMs + d.claimEmptyMs + d.saveStateMs) / d.jobs, 2),
        String(d.maxConcurrentClaims),
      ]);
    }
  }
  console.log('');
  console.log('Where the workers\' storage time goes (per job; ms are wall time per call as Agenda sees it, incl. pool waits):');
  console.log(
    table(
      ['backend', 'workers', 'phase', 'claims/job', 'empty/job', 'claim ms', 'empty ms', 'saveState ms', 'storage ms/job', 'max claims in flight'],
      diagRows,
      [false, true, false, true, true, true, true, true, true, true],
    ),
  );

  const find = (backend: BackendKind, notify: NotifyKind, workers: number) =>
    results.find((r) => r.scenario.backend === backend && r.scenario.notify === notify && r.scenario.workers === workers);
  console.log('');
  console.log('Ratios (each > 1.0 means ours is better):');
  const throughputRatios: number[] = [];
  const oursP99: number[] = [];
  for (const workers of [1, 2]) {
    const ours = find('ours', 'redis', workers);
    const peer = find('peer', 'pg', workers);
    if (!ours || !peer) continue;
    const tr = ours.throughput && peer.throughput ? ours.throughput.jobsPerSec / peer.throughput.jobsPerSec : Number.NaN;
    const lr = ours.latency && peer.latency ? peer.latency.p99 / ours.latency.p99 : Number.NaN;
    throughputRatios.push(tr);
    if (ours.latency) oursP99.push(ours.latency.p99);
    console.log(`  ${workers} worker${workers > 1 ? 's' : ' '}: throughput ours/peer = ${fmt(tr, 2)}   pickup p99 peer/ours = ${fmt(lr, 2)}`);
  }

  const timers = results.flatMap((r) => r.leftTimers);
  const notes = results.flatMap((r) => [...r.notes, ...dedupe(r.errors).map((e) => `agenda error: ${e}`)].map((n) => `${tag(r.scenario)} ${n}`));
  if (notes.length) {
    console.log('');
    console.log('Notes:');
    for (const note of notes) console.log(`  ${note}`);
  }
  if (timers.some((n) => n > 0)) {
    console.log('');
    console.log(
      `Workers closed all connections on agenda.stop(), but had ${Math.min(...timers)}-${Math.max(...timers)} timers still pending ` +
        '(Agenda 6.2 leaves each run\'s lock-lifetime watchdog, lockLifetime/2 = 5 min, behind); they exit explicitly.',
    );
  }

  console.log('');
  const throughputOk = throughputRatios.length > 0 && throughputRatios.every((r) => r >= 1.0);
  const latencyOk = oursP99.length > 0 && oursP99.every((p) => p < 50);
  console.log(
    `Goals: throughput ratio >= 1.0: ${throughputOk ? 'HOLDS' : 'DOES NOT HOLD'} (${throughputRatios.map((r) => fmt(r, 2)).join(', ')}); ` +
      `our pickup p99 < 50 ms with notifications on: ${latencyOk ? 'HOLDS' : 'DOES NOT HOLD'} (${oursP99.map((p) => `${fmt(p)} ms`).join(', ')}) ` +
      `=> ${throughputOk && latencyOk ? 'ALL GOALS HOLD' : 'NOT ALL GOALS HOLD'}`,
  );
}

function sumStats(all: StorageStats[]): StorageStats {
  return {
    claimsFound: all.reduce((sum, s) => sum + s.claimsFound, 0),
    claimsEmpty: all.reduce((sum, s) => sum + s.claimsEmpty, 0),
    claimFoundMs: all.reduce((sum, s) => sum + s.claimFoundMs, 0),
    claimEmptyMs: all.reduce((sum, s) => sum + s.claimEmptyMs, 0),
    saveStates: all.reduce((sum, s) => sum + s.saveStates, 0),
    saveStateMs: all.reduce((sum, s) => sum + s.saveStateMs, 0),
    maxConcurrentClaims: Math.max(0, ...all.map((s) => s.maxConcurrentClaims)),
  };
}

function diffStats(after: StorageStats, before: StorageStats): StorageStats {
  return {
    claimsFound: after.claimsFound - before.claimsFound,
    claimsEmpty: after.claimsEmpty - before.claimsEmpty,
    claimFoundMs: after.claimFoundMs - before.claimFoundMs,
    claimEmptyMs: after.claimEmptyMs - before.claimEmptyMs,
    saveStates: after.saveStates - before.saveStates,
    saveStateMs: after.saveStateMs - before.saveStateMs,
    maxConcurrentClaims: after.maxConcurrentClaims, // high-water mark since the worker started
  };
}

function dedupe(errors: string[]): string[] {
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error, (counts.get(error) ?? 0) + 1);
  return [...counts].map(([error, count]) => (count > 1 ? `${error} (x${count})` : error));
}

// ---------------------------------------------------------------------------------------------------------------

const admin = await Admin.open();
const results: Result[] = [];
try {
  const versions = await admin.versions();
  const began = Date.now();
  for (const scenario of scenarios()) results.push(await runScenario(scenario, admin));
  report(results, versions);
  console.log(`(run took ${fmt((Date.now() - began) / 1000, 0)} s)`);
} finally {
  await admin.close();
}
// Everything is closed now, so the process ends by itself; if it does not, name what is still open.
setTimeout(() => {
  console.error(`bench: still alive 5 s after the end; open: ${process.getActiveResourcesInfo().join(', ')}`);
  process.exit(1);
}, 5000).unref();
