/**
 * Backlog soak (issue 11): BENCH_JOBS (300) replays of a read-only demo-shop check (sign in, a page that answers
 * after BENCH_SLOW_MS, a text check; test/support/backlog.ts) created at once, on two real `qa worker` processes
 * (the CLI, from source) at WORKER_CONCURRENCY BENCH_CONCURRENCY (4) with QUEUE_LOCK_LIFETIME_MS BENCH_LOCK_MS
 * (5000). When half the jobs have ended, one worker is SIGKILLed with runs in hand; a replacement is started at once
 * (BENCH_REPLACE=0: the other finishes alone). Then, from the database only (test/support/run-audit.ts):
 *
 *   jobs/min (before the kill, after it, overall), attempts per job (mean, max), overlapping attempts, events after
 *   a terminal event, jobs not terminal, duplicate screenshots (one per step per attempt), unannounced artifacts,
 *   passed jobs whose last attempt did not pass every step exactly once,
 *   resumed jobs against the runs the killed worker held, and the workers' log lines that mean a double run.
 *
 *   npm run bench:soak
 *
 * Baseline, measured in the same run: bare Playwright doing the same steps in the same browser build, a new context
 * per job, as many at a time as the two workers' slots (bench/support/bare-backlog.ts), BENCH_BARE_JOBS (100) jobs;
 * and the ratio of the service's throughput to it.
 *
 * The must-be-zero figures are the goals; the process exits 1 when one is not zero. The database of
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_bench_soak) is dropped and created again, so its name
 * must contain "bench".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { startServe } from '../src/compose/index.js';
import { loadConfig, type Config } from '../src/config.js';
import { createApiKey } from '../src/identity/api-keys.js';
import { createLogger } from '../src/logger.js';
import { openStore } from '../src/store/open-store.js';
import { DEFAULT_ACCOUNT, startDemoApp } from '../test/fixtures/demo-app/index.js';
import { BACKLOG_SECRET_REFS, backlogCheck, insertActiveCheck, jobsHeldBy, logLines, startQaWorker, type QaWorkerProcess } from '../test/support/backlog.js';
import { insertRepository } from '../test/support/check-fixtures.js';
import { auditRuns } from '../test/support/run-audit.js';
import { bareBacklog } from './support/bare-backlog.js';
import { intFromEnv } from './support/config.js';
import { freshBenchDatabase } from './support/database.js';
import { fmt, percentile, table } from './support/stats.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_bench_soak';
const JOBS = intFromEnv('BENCH_JOBS', 300);
const CONCURRENCY = intFromEnv('BENCH_CONCURRENCY', 4);
const LOCK_MS = intFromEnv('BENCH_LOCK_MS', 5_000);
const SLOW_MS = intFromEnv('BENCH_SLOW_MS', 1_000);
const BARE_JOBS = intFromEnv('BENCH_BARE_JOBS', 100);
const REPLACE = process.env.BENCH_REPLACE !== '0';
const STEPS = backlogCheck(SLOW_MS).steps.length;
/** Log lines of a worker that mean a job was run twice at once, or that a stale attempt noticed it lost the run. */
const TELLTALES = ['Duplicate entry', 'another worker took this run over', 'a newer attempt owns this run'];
/**
 * Agenda's "is it still alive" check (every half lock lifetime) throws this when it wakes while a finished run's
 * closing save is under way: Agenda clears the job's `lockedAt` before that save, after the handler has returned.
 * Harmless then (the run is over; Agenda frees its slot a few milliseconds early), so counted apart.
 */
const CLOSING_SAVE_NOISE = 'no lockedAt date found';

const watchdog = setTimeout(() => {
  console.error('bench: still running after 30 min, giving up');
  process.exit(1);
}, 30 * 60_000);
watchdog.unref();

function benchConfig(artifactsDir: string): Config {
  return loadConfig({ DATABASE_URL, LOG_LEVEL: 'error', LOG_FORMAT: 'json', ARTIFACTS_DIR: artifactsDir, QUEUE_POLL_INTERVAL_MS: '60000' }, { isTTY: false });
}

async function countTerminal(dataSource: DataSource): Promise<number> {
  const [{ n }] = (await dataSource.query(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('passed', 'failed', 'errored', 'cancelled')`)) as { n: number | string }[];
  return Number(n);
}

let shown = -1;
/** Progress: a line rewritten in a terminal, else a line each tenth of the jobs. */
function progress(over: number): void {
  const step = Math.max(1, Math.floor(JOBS / 10));
  if (over === shown || (!process.stdout.isTTY && Math.floor(over / step) === Math.floor(shown / step))) return;
  shown = over;
  if (process.stdout.isTTY) process.stdout.write(`\r  ${over}/${JOBS} ended`);
  else console.log(`  ${over}/${JOBS} ended`);
}

async function waitFor(what: string, probe: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const began = performance.now();
const { version } = await freshBenchDatabase(DATABASE_URL);
const artifactsDir = mkdtempSync(join(os.tmpdir(), 'qa-bench-soak-'));
const config = benchConfig(artifactsDir);
const logger = createLogger(config.log, process.stderr);
const dataSource = await openStore(config, logger);
const demo = await startDemoApp();
// The job service as `qa serve` composes it, used in-process to create the backlog (its queue only enqueues).
const serve = await startServe(config, logger, { dataSource });
const workers: QaWorkerProcess[] = [];
let failed = false;
try {
  const { organization, principal } = await createApiKey(dataSource, 'bench');
  const repositoryId = await insertRepository(dataSource, organization.id, { baseUrl: demo.url, testValueSecretRefs: BACKLOG_SECRET_REFS });
  const checkId = await insertActiveCheck(dataSource, organization.id, repositoryId, backlogCheck(SLOW_MS));
  const workerEnv = {
    DATABASE_URL,
    ARTIFACTS_DIR: artifactsDir,
    QUEUE_LOCK_LIFETIME_MS: String(LOCK_MS),
    QUEUE_POLL_INTERVAL_MS: '200',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    SHUTDOWN_GRACE_MS: '30000',
    DEMO_EMAIL: DEFAULT_ACCOUNT.email,
    DEMO_PASSWORD: DEFAULT_ACCOUNT.password,
  };
  console.log(`starting two qa worker processes (concurrency ${CONCURRENCY}, lock lifetime ${LOCK_MS} ms)…`);
  workers.push(...(await Promise.all([startQaWorker(workerEnv), startQaWorker(workerEnv)])));
  const [doomed] = workers;

  console.log(`creating ${JOBS} replays at once…`);
  const startedAt = Date.now();
  const jobIds: string[] = [];
  for (let n = 0; n < JOBS; n++) {
    const created = await serve.services.jobs.create(principal, { repositoryId, checkId, baseUrl: demo.url, networkAllowlist: [], trigger: 'cli' });
    if (created.kind !== 'runnable') throw new Error(`the replay was not runnable: ${JSON.stringify(created)}`);
    jobIds.push(created.jobId);
  }
  const createdMs = Date.now() - startedAt;

  await waitFor('half the jobs to end', async () => {
    const over = await countTerminal(dataSource);
    progress(over);
    return over >= JOBS / 2 && (await jobsHeldBy(dataSource, doomed!.ownerPattern)).some((job) => job.status === 'running');
  }, 20 * 60_000);
  await doomed!.signal('SIGKILL');
  const killedAt = Date.now();
  const endedAtKill = await countTerminal(dataSource);
  const held = await jobsHeldBy(dataSource, doomed!.ownerPattern);
  if (process.stdout.isTTY) process.stdout.write('\n');
  console.log(`  SIGKILLed one worker with ${endedAtKill} jobs ended; it held ${held.length} (${held.filter((job) => job.status === 'running').length} running)`);
  if (REPLACE) {
    workers.push(await startQaWorker(workerEnv));
    console.log('  started a replacement worker');
  }

  await waitFor('every job to end', async () => {
    const over = await countTerminal(dataSource);
    progress(over);
    return over >= JOBS;
  }, 20 * 60_000);
  if (process.stdout.isTTY) process.stdout.write('\n');
  // A stale attempt would write after the end: give one a lock lifetime to show.
  await new Promise((resolve) => setTimeout(resolve, LOCK_MS));
  const [{ last }] = (await dataSource.query('SELECT MAX(finished_at) AS last FROM jobs')) as { last: Date }[];
  const endedAt = new Date(last).getTime();

  const stops = await Promise.all(workers.slice(1).map((worker) => worker.signal('SIGTERM')));
  const audits = await auditRuns(dataSource, jobIds);
  const times = (await dataSource.query('SELECT started_at, finished_at FROM jobs WHERE started_at IS NOT NULL AND finished_at IS NOT NULL')) as { started_at: Date; finished_at: Date }[];
  // How long the dead worker's runs waited for another worker: from the kill to their job.resumed.
  const resumedAt = (await dataSource.query(`SELECT at FROM job_events WHERE type = 'job.resumed'`)) as { at: Date }[];
  const resumeWaitMs = resumedAt.map((row) => new Date(row.at).getTime() - killedAt);
  const runMs = times.map((row) => new Date(row.finished_at).getTime() - new Date(row.started_at).getTime());

  console.log('  baseline: bare Playwright…');
  const bare = await bareBacklog({
    executablePath: config.browser.executablePath,
    baseUrl: demo.url,
    account: DEFAULT_ACCOUNT,
    slowMs: SLOW_MS,
    jobs: BARE_JOBS,
    concurrency: 2 * CONCURRENCY,
  });

  // ---------------------------------------------------------------------------------------------------------------
  const sum = (pick: (audit: (typeof audits)[number]) => number) => audits.reduce((total, audit) => total + pick(audit), 0);
  const attempts = audits.map((audit) => audit.attempts.length);
  const heldIds = new Set(held.map((job) => job.jobId));
  const resumed = audits.filter((audit) => audit.resumed > 0);
  const statuses = new Map<string, number>();
  for (const audit of audits) statuses.set(audit.status, (statuses.get(audit.status) ?? 0) + 1);
  // A passing replay keeps no screenshot (src/workflows/qa-run/evidence.ts): its last attempt's events show each step.
  const everyStepOnce = JSON.stringify(Array(STEPS).fill(1));
  const incomplete = audits.filter((audit) => audit.status === 'passed' && JSON.stringify(audit.lastAttemptPassedSteps) !== everyStepOnce).length;
  const perMinute = (jobs: number, ms: number) => (jobs / ms) * 60_000;
  const overall = perMinute(JOBS, endedAt - startedAt);
  const logs = workers.map((worker) => worker.qa.run.stdout + worker.qa.run.stderr).join('\n');
  const telltales = TELLTALES.map((text) => [text, logs.split(text).length - 1] as const);
  const mustBeZero: [string, number][] = [
    ['overlapping attempts', sum((audit) => audit.overlaps)],
    ['events after a terminal event', sum((audit) => audit.eventsAfterTerminal)],
    ['jobs not terminal', audits.filter((audit) => !['passed', 'failed', 'errored', 'cancelled'].includes(audit.status)).length],
    ['jobs with other than one terminal event', audits.filter((audit) => audit.terminalEvents !== 1).length],
    ['duplicate screenshots (beyond one per step per attempt)', sum((audit) => audit.duplicateScreenshots)],
    ['artifacts no event announced', sum((audit) => audit.unannouncedArtifacts)],
    ['passed jobs whose last attempt did not pass every step once', incomplete],
    ['resumed jobs the killed worker did not hold', resumed.filter((audit) => !heldIds.has(audit.jobId)).length],
    ['workers that did not exit 0 on SIGTERM', stops.filter((stop) => stop.code !== 0).length],
  ];

  console.log('');
  console.log(`Soak bench: ${JOBS} replays of a ${STEPS}-step read-only check (sign in, a ${SLOW_MS} ms page, a text check) on the demo shop`);
  console.log(`Server: ${version} | Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => fmt(load, 2)).join(' ')}`);
  console.log(`Two qa worker processes at concurrency ${CONCURRENCY}, lock lifetime ${LOCK_MS} ms; one SIGKILLed after ${endedAtKill} jobs ended${REPLACE ? ', a replacement started at once' : ''}`);
  console.log('');
  console.log(
    table(
      ['figure', 'value'],
      [
        ['jobs created (all at once)', `${JOBS} in ${fmt(createdMs / 1000, 1)} s`],
        ['jobs/min overall (first create to last end)', fmt(overall, 1)],
        ['jobs/min before the kill', fmt(perMinute(endedAtKill, killedAt - startedAt), 1)],
        ['jobs/min after the kill', fmt(perMinute(JOBS - endedAtKill, endedAt - killedAt), 1)],
        ['run time p50 / p90 / max, ms (started to ended)', `${fmt(percentile(runMs, 50), 0)} / ${fmt(percentile(runMs, 90), 0)} / ${fmt(percentile(runMs, 100), 0)}`],
        ['runs longer than the lock lifetime', `${runMs.filter((ms) => ms > LOCK_MS).length} of ${runMs.length}`],
        ['attempts per job, mean / max', `${fmt(attempts.reduce((a, b) => a + b, 0) / attempts.length, 3)} / ${Math.max(...attempts)}`],
        ['jobs by status', [...statuses.entries()].map(([status, n]) => `${status} ${n}`).join(', ')],
        ['jobs the killed worker held (running)', `${held.length} (${held.filter((job) => job.status === 'running').length})`],
        ['jobs resumed (job.resumed)', String(resumed.length)],
        ['kill to job.resumed, min / max, ms', `${fmt(Math.min(...resumeWaitMs), 0)} / ${fmt(Math.max(...resumeWaitMs), 0)}`],
        ...telltales.map(([text, n]): [string, string] => [`worker log lines "${text}"`, String(n)]),
        [`worker log lines "${CLOSING_SAVE_NOISE}" (closing-save noise)`, String(logs.split(CLOSING_SAVE_NOISE).length - 1)],
      ],
      [false, true],
    ),
  );
  console.log('');
  console.log(`Baseline: bare Playwright, the same steps in the same browser build, a new context per job, ${bare.concurrency} at a time (the workers' slots), ${bare.jobs} jobs`);
  console.log(`  ${fmt(bare.perMinute, 1)} jobs/min; the service's overall throughput is ${fmt(overall / bare.perMinute, 2)}x that`);
  console.log('');
  console.log('Must be zero:');
  for (const [label, value] of mustBeZero) console.log(`  ${label}: ${value}${value === 0 ? '' : '  <-- NOT ZERO'}`);
  failed = mustBeZero.some(([, value]) => value !== 0);
  console.log(`  => ${failed ? 'NOT ALL ZERO' : 'ALL ZERO'}`);
  console.log(`(run took ${fmt((performance.now() - began) / 1000, 0)} s)`);
  if (failed) {
    for (const line of workers.flatMap((worker) => logLines(worker.qa.run, 'job failed'))) console.error(JSON.stringify(line));
  }
} finally {
  await Promise.all(workers.map((worker) => worker.signal('SIGKILL')));
  await serve.stop();
  await demo.close();
  await dataSource.destroy();
  rmSync(artifactsDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
