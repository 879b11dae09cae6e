/**
 * API benchmark: the service's real HTTP app on MySQL/MariaDB beside a bare Express app, same client, same run.
 *
 *   npm run bench:api
 *
 * The app is wired as `qa start` wires it (bench/support/api-app.ts), with the queue but no worker, so runnable
 * jobs are only enqueued. With 16 keep-alive clients in a closed loop it measures job creation (a task that needs
 * review, and a runnable task), GET job, and the peer's JSON POST (202) and GET. The clients run in a child
 * process (bench/support/load-process.ts), as real clients would: in this process their callbacks would queue
 * behind the server's and add to its latency. Both servers are loaded the same way. Then 500 followers stream one job's
 * events while a writer appends 20 events/s: delivery latency is arrival at the follower minus the writer's commit,
 * both on this process's clock. The writer runs twice: polling only (a worker in another process), and waking the
 * feed after each commit (a worker in this process, `qa start`). It prints figures and whether the goals hold
 * (creation >= 300/s with p99 < 50 ms, delivery p99 < 250 ms); it never fails on them.
 *
 * The database of BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_bench_api) is dropped and created
 * again, so its name must contain "bench". Other knobs (env): BENCH_CLIENTS (16), BENCH_SECONDS (5 per
 * measurement, after 1 s of warm-up), BENCH_FOLLOWERS (500), BENCH_EVENT_RATE (20 events/s), BENCH_FOLLOW_SECONDS (10).
 */
import http from 'node:http';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../src/config.js';
import { FEED_TICK_MS } from '../src/jobs/event-feed.js';
import { appendJobEvent } from '../src/jobs/job-events.js';
import { createLogger } from '../src/logger.js';
import { createApiKey } from '../src/identity/api-keys.js';
import { Job } from '../src/store/entities/job.entity.js';
import { openStore } from '../src/store/open-store.js';
import { freshBenchDatabase } from './support/database.js';
import { insertRepository } from '../test/support/check-fixtures.js';
import { startBareExpress, startServiceApi, type BenchApi } from './support/api-app.js';
import { intFromEnv } from './support/config.js';
import { callOnce, follow, loadElsewhere, type Call, type Follower, type LoadResult } from './support/http-load.js';

/** A request whose body is text, so it can be sent to the load process. */
type TextCall = Call & { body?: string };
import { fmt, percentile, table } from './support/stats.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_bench_api';
const CLIENTS = intFromEnv('BENCH_CLIENTS', 16);
const SECONDS = intFromEnv('BENCH_SECONDS', 5);
const WARMUP_MS = 1000;
const FOLLOWERS = intFromEnv('BENCH_FOLLOWERS', 500);
const EVENT_RATE = intFromEnv('BENCH_EVENT_RATE', 20);
const FOLLOW_SECONDS = intFromEnv('BENCH_FOLLOW_SECONDS', 10);
/** How long streams may take to end once the job has finished before the bench stops waiting. */
const DRAIN_MS = 10_000;
const GOALS = { creationsPerSecond: 300, creationP99Ms: 50, deliveryP99Ms: 250 };

const REVIEW_TASK = 'Delete the demo account';
const RUNNABLE_TASK = 'Check that the pricing page lists three plans';

const watchdog = setTimeout(() => {
  console.error('bench: still running after 5 min, giving up');
  process.exit(1);
}, 5 * 60_000);
watchdog.unref();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

interface Fixture {
  key: string;
  repositoryId: string;
}

async function fixture(dataSource: DataSource): Promise<Fixture> {
  const { key, organization } = await createApiKey(dataSource, 'bench');
  const repositoryId = await insertRepository(dataSource, organization.id);

  return { key, repositoryId };
}

// ---------------------------------------------------------------------------------------------------------------
// Request/response measurements

interface Row {
  label: string;
  ours: LoadResult;
  peerLabel: string;
  peer: LoadResult;
}

interface Measured {
  /** Closed loop: every client sends its next request as soon as the last is answered (capacity). */
  saturated: Row[];
  /** The creation goal's load: GOALS.creationsPerSecond offered over the same clients. */
  atGoalRate: Row[];
}

async function measureRequests(api: BenchApi, peerBase: string, { key, repositoryId }: Fixture): Promise<Measured> {
  const auth = { authorization: `Bearer ${key}` };
  const createBody = (task: string) => JSON.stringify({ projectId: repositoryId, naturalLanguageTask: task, baseUrl: 'https://shop.example', trigger: 'cli' });
  const show = (label: string, result: LoadResult) => {
    console.log(
      `  ${label}: ${fmt(result.perSecond, 0)} req/s, p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms` +
        `${result.errors ? `, ${result.errors} errors (${result.firstError})` : ''}`,
    );
    return result;
  };
  const options = { clients: CLIENTS, seconds: SECONDS, warmupMs: WARMUP_MS };
  const saturate = async (label: string, base: string, call: TextCall) => show(label, await loadElsewhere({ kind: 'closed', base, call, options }));
  const offer = async (label: string, base: string, call: TextCall) =>
    show(`${label} at ${GOALS.creationsPerSecond}/s`, await loadElsewhere({ kind: 'paced', base, call, rate: GOALS.creationsPerSecond, options }));

  const peerPost: TextCall = { method: 'POST', path: '/things', body: createBody(RUNNABLE_TASK), expect: 202 };
  const peerGet: TextCall = { method: 'GET', path: `/things/${randomUUID()}`, expect: 200 };
  const review: TextCall = { method: 'POST', path: '/api/jobs', body: createBody(REVIEW_TASK), headers: auth, expect: 202 };
  const runnable: TextCall = { method: 'POST', path: '/api/jobs', body: createBody(RUNNABLE_TASK), headers: auth, expect: 202 };
  const created = await callOnce(api.base, runnable);
  const get: TextCall = { method: 'GET', path: `/api/jobs/${String(created.jobId)}`, headers: auth, expect: 200 };

  const labels = {
    peerPost: 'bare Express POST (JSON, 202)',
    peerGet: 'bare Express GET',
    review: `POST /api/jobs "${REVIEW_TASK}" (review_required)`,
    runnable: `POST /api/jobs "${RUNNABLE_TASK.slice(0, 24)}…" (runnable)`,
    get: 'GET /api/jobs/:id (2 events)',
  };
  const saturatedPeerPost = await saturate(labels.peerPost, peerBase, peerPost);
  const saturatedPeerGet = await saturate(labels.peerGet, peerBase, peerGet);
  const saturated: Row[] = [
    { label: labels.review, ours: await saturate(labels.review, api.base, review), peerLabel: labels.peerPost, peer: saturatedPeerPost },
    { label: labels.runnable, ours: await saturate(labels.runnable, api.base, runnable), peerLabel: labels.peerPost, peer: saturatedPeerPost },
    { label: labels.get, ours: await saturate(labels.get, api.base, get), peerLabel: labels.peerGet, peer: saturatedPeerGet },
  ];
  const offeredPeerPost = await offer(labels.peerPost, peerBase, peerPost);
  const atGoalRate: Row[] = [
    { label: labels.review, ours: await offer(labels.review, api.base, review), peerLabel: labels.peerPost, peer: offeredPeerPost },
    { label: labels.runnable, ours: await offer(labels.runnable, api.base, runnable), peerLabel: labels.peerPost, peer: offeredPeerPost },
  ];
  return { saturated, atGoalRate };
}

// ---------------------------------------------------------------------------------------------------------------
// Followers

interface FollowResult {
  label: string;
  followers: number;
  events: number;
  deliveries: number;
  p50: number;
  p99: number;
  max: number;
  feedReadsPerSecond: number;
  endedCleanly: number;
  /** Followers whose indexes were not exactly the written ones, in order, each once. */
  wrong: number;
}

async function followPhase(api: BenchApi, dataSource: DataSource, { key, repositoryId }: Fixture, wake: boolean): Promise<FollowResult> {
  const label = wake ? 'woken after each commit (worker in this process)' : 'polling only (worker in another process)';
  const created = await callOnce(api.base, {
    method: 'POST',
    path: '/api/jobs',
    body: JSON.stringify({ projectId: repositoryId, naturalLanguageTask: RUNNABLE_TASK, baseUrl: 'https://shop.example', trigger: 'cli' }),
    headers: { authorization: `Bearer ${key}` },
    expect: 202,
  });
  const jobId = String(created.jobId);
  const firstIndex = 2; // job.created and job.queued are history: the followers start after them

  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const followers: Follower[] = [];
  const path = `/api/jobs/${jobId}/events?after=${firstIndex - 1}`;
  for (let opened = 0; opened < FOLLOWERS; opened += 100) {
    const batch = Math.min(100, FOLLOWERS - opened);
    followers.push(...(await Promise.all(Array.from({ length: batch }, () => follow(agent, api.base, path, { authorization: `Bearer ${key}` })))));
  }
  if (!(await until(() => api.feed.size().followers === FOLLOWERS, 10_000))) throw new Error(`only ${api.feed.size().followers}/${FOLLOWERS} followers subscribed`);

  const written = new Map<number, number>();
  const write = async (type: 'page.visited' | 'job.passed', finish: boolean) => {
    const event = await dataSource.transaction(async (manager) => {
      const appended = await appendJobEvent(manager, jobId, type, { note: 'bench' });
      if (finish) await manager.update(Job, { id: jobId }, { status: 'passed' });
      return appended;
    });
    written.set(event.seq, performance.now());
    if (wake) api.feed.wake(jobId);
  };

  const total = EVENT_RATE * FOLLOW_SECONDS;
  const readsBefore = api.feedReads();
  const begin = performance.now() + 20;
  for (let n = 0; n < total; n++) {
    await sleep(begin + (n * 1000) / EVENT_RATE - performance.now());
    await write('page.visited', false);
  }
  const feedSeconds = (performance.now() - begin) / 1000;
  const feedReads = api.feedReads() - readsBefore;
  await write('job.passed', true);

  let drainTimer: NodeJS.Timeout | undefined;
  const drained = new Promise<boolean>((resolve) => (drainTimer = setTimeout(() => resolve(false), DRAIN_MS)));
  const outcomes = await Promise.all(followers.map((follower) => Promise.race([follower.ended.then(() => true, () => false), drained])));
  clearTimeout(drainTimer);
  for (const follower of followers) follower.close();
  agent.destroy();

  const expected = [...written.keys()].sort((a, b) => a - b);
  const latencies: number[] = [];
  let wrong = 0;
  for (const follower of followers) {
    const indexes = follower.arrivals.map((arrival) => arrival.index);
    if (indexes.length !== expected.length || indexes.some((index, i) => index !== expected[i])) wrong++;
    for (const { index, at } of follower.arrivals) {
      const writtenAt = written.get(index);
      if (writtenAt !== undefined) latencies.push(at - writtenAt);
    }
  }
  const result: FollowResult = {
    label,
    followers: FOLLOWERS,
    events: written.size,
    deliveries: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    feedReadsPerSecond: feedReads / feedSeconds,
    endedCleanly: outcomes.filter(Boolean).length,
    wrong,
  };
  console.log(`  followers, ${label}: p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, ${fmt(result.feedReadsPerSecond, 1)} feed reads/s`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const requestTable = (rows: Row[], peerColumns: boolean) =>
  table(
    ['measurement', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'peer', 'peer req/s', 'peer p50', 'peer p99', ...(peerColumns ? ['req/s ours/peer'] : [])],
    rows.map(({ label, ours, peerLabel, peer }) => [
      label,
      fmt(ours.perSecond, 0),
      fmt(ours.p50),
      fmt(ours.p99),
      fmt(ours.max),
      String(ours.errors),
      peerLabel,
      fmt(peer.perSecond, 0),
      fmt(peer.p50),
      fmt(peer.p99),
      ...(peerColumns ? [fmt(ours.perSecond / peer.perSecond, 2)] : []),
    ]),
    [false, true, true, true, true, true, false, true, true, true, true],
  );

function report({ saturated, atGoalRate }: Measured, follows: FollowResult[], context: { version: string; poolSize: number }): void {
  console.log('');
  console.log(
    `API bench: ${CLIENTS} keep-alive clients, ${SECONDS} s per measurement after ${WARMUP_MS / 1000} s warm-up; ` +
      `${FOLLOWERS} followers, writer at ${EVENT_RATE} events/s for ${FOLLOW_SECONDS} s; feed tick ${FEED_TICK_MS} ms`,
  );
  console.log(
    `Server: ${context.version}, pool ${context.poolSize} connections | Node ${process.version}, ${os.cpus().length} CPUs, ` +
      `load average ${os.loadavg().map((load) => fmt(load, 2)).join(' ')} | app and peer share this process, the clients run in a child process`,
  );
  console.log('');
  console.log(`Saturated: each client sends its next request as soon as the last is answered (capacity; latency = ${CLIENTS} / rate)`);
  console.log(requestTable(saturated, true));
  console.log('');
  console.log(`Offered ${GOALS.creationsPerSecond} requests/s over the ${CLIENTS} clients (latency from each request's due time)`);
  console.log(requestTable(atGoalRate, false));
  console.log('');
  console.log(
    table(
      ['event writer', 'followers', 'events', 'deliveries', 'p50 ms', 'p99 ms', 'max ms', 'feed reads/s', 'ended cleanly', 'wrong sequence'],
      follows.map((f) => [
        f.label,
        String(f.followers),
        String(f.events),
        String(f.deliveries),
        fmt(f.p50),
        fmt(f.p99),
        fmt(f.max),
        fmt(f.feedReadsPerSecond, 1),
        `${f.endedCleanly}/${f.followers}`,
        String(f.wrong),
      ]),
      [false, true, true, true, true, true, true, true, true, true],
    ),
  );
  console.log(
    `(each feed read is 2 queries for all ${FOLLOWERS} followers; one poll per follower every ${FEED_TICK_MS} ms would be ` +
      `${fmt((FOLLOWERS * 2 * 1000) / FEED_TICK_MS, 0)} queries/s)`,
  );

  const capacity = saturated.slice(0, 2).map((row) => row.ours);
  const capacityOk = capacity.every((r) => r.perSecond >= GOALS.creationsPerSecond && r.errors === 0);
  const atRate = atGoalRate.map((row) => row.ours);
  // Kept up with the offered rate (within 2 %) and answered fast enough while doing so.
  const atRateOk = atRate.every((r) => r.perSecond >= 0.98 * GOALS.creationsPerSecond && r.p99 < GOALS.creationP99Ms && r.errors === 0);
  const polling = follows.find((f) => f.label.startsWith('polling'));
  const deliveryOk = follows.every((f) => f.p99 < GOALS.deliveryP99Ms && f.wrong === 0 && f.endedCleanly === f.followers);
  const holds = (ok: boolean) => (ok ? 'HOLDS' : 'DOES NOT HOLD');
  console.log('');
  console.log('Goals:');
  console.log(
    `  creation capacity >= ${GOALS.creationsPerSecond}/s: ${holds(capacityOk)} (${capacity.map((r) => `${fmt(r.perSecond, 0)}/s`).join(', ')}; ` +
      `saturated p99 ${capacity.map((r) => `${fmt(r.p99)} ms`).join(', ')})`,
  );
  console.log(
    `  creation p99 < ${GOALS.creationP99Ms} ms at ${GOALS.creationsPerSecond}/s: ${holds(atRateOk)} ` +
      `(${atRate.map((r) => `${fmt(r.perSecond, 0)}/s p99 ${fmt(r.p99)} ms`).join(', ')})`,
  );
  console.log(
    `  delivery p99 < ${GOALS.deliveryP99Ms} ms, every event once and in order: ${holds(deliveryOk)} ` +
      `(polling only ${fmt(polling?.p99 ?? Number.NaN)} ms)`,
  );
  console.log(`  => ${capacityOk && atRateOk && deliveryOk ? 'ALL GOALS HOLD' : 'NOT ALL GOALS HOLD'}`);
}

// ---------------------------------------------------------------------------------------------------------------

const began = performance.now();
const { version } = await freshBenchDatabase(DATABASE_URL);
const config = loadConfig({ DATABASE_URL, HOST: '127.0.0.1', LOG_LEVEL: 'error', LOG_FORMAT: 'json' }, { isTTY: false });
const logger = createLogger(config.log, process.stderr);
const dataSource = await openStore(config, logger);
let api: BenchApi | undefined;
let peer: Awaited<ReturnType<typeof startBareExpress>> | undefined;
try {
  const setup = await fixture(dataSource);
  api = await startServiceApi(config, logger, dataSource);
  peer = await startBareExpress(config.http.host);
  console.log('measuring…');
  const measured = await measureRequests(api, peer.base, setup);
  const follows = [await followPhase(api, dataSource, setup, false), await followPhase(api, dataSource, setup, true)];
  report(measured, follows, { version, poolSize: (dataSource.options as { poolSize?: number }).poolSize ?? 10 });
  console.log(`(run took ${fmt((performance.now() - began) / 1000, 0)} s)`);
} finally {
  await peer?.server.close();
  await api?.close();
  await dataSource.destroy();
}
// Everything is closed now, so the process ends by itself; if it does not, name what is still open.
setTimeout(() => {
  console.error(`bench: still alive 5 s after the end; open: ${process.getActiveResourcesInfo().join(', ')}`);
  process.exit(1);
}, 5000).unref();
