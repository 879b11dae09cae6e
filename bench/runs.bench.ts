/**
 * Browser-run benchmark: a 6-step check on the demo shop (test/fixtures/demo-app), run by the natural-language
 * job that produces it and replayed from its compiled steps, then replays at worker concurrency 1, 2 and 4.
 *
 *   npm run bench:runs
 *
 * The worker is wired as `qa start` wires it (bench/support/run-worker.ts): real Chromium, the egress proxy, a
 * scrubbed trace per run, a screenshot per step, axe on each page; jobs are created through the job service on the
 * worker's own queue, so they wake the worker in-process. Wall time of a job is from `create` to the commit that
 * ends it (the worker's `eventsWritten` hook, then the job's status). The task signs in with secret test values, so
 * scrubbing (events, screenshots masked, the trace) is on the path as it is for real checks.
 *
 * 1. Latency, one job at a time, browser warm (one warm-up job of each kind, not counted): BENCH_RUNS (20) NL runs,
 *    replays and bare Playwright jobs (3.), interleaved (NL, replay, bare, NL, …) so drift on a shared machine hits
 *    all alike; p50 / p90 / max, the replay/NL ratio, the replay against bare Playwright (the goal), and where a run's
 *    time goes (from the events' timestamps).
 * 2. Throughput: per level a fresh worker with WORKER_CONCURRENCY = 1, 2, 4, warmed with `level` replays, then
 *    BENCH_BATCH (16) replays created at once; jobs/min from the first create to the last finish, and the ratio to
 *    concurrency 1. BENCH_ROUNDS (5) rounds, each of every level and then of bare Playwright's (3.), so drift on a
 *    shared machine hits both alike; each level's median round is reported. The concurrency goal is judged per
 *    round (ours 2 ÷ 1 against bare Playwright's 2 ÷ 1 in that round), on the median of the rounds' ratios.
 *
 *    Where `taskset` is there and the machine has 2 or more cores, concurrency 2 once more with the worker and its
 *    browser pinned to one core (the database server is not): the ratio says how throughput grows with the cores.
 * 3. Baseline: the same six steps done by bare Playwright in the same browser (bench/support/bare-playwright.ts), a new
 *    context per job, at the same levels (in the same rounds, the median), each level in a fresh browser warmed with
 *    `level` jobs as the service's fresh worker is: how much concurrency adds when
 *    nothing but the browser works, which bounds what it can add to the service's runs on this machine.
 *
 * All give CPU time from /proc (bench/support/cpu.ts): this process with its browser (and of that, the Node process
 * alone: the service, or bare Playwright's client and driver), the database server, and
 * the rest of the machine meanwhile (other people's work on a shared machine). The cores one job keeps busy at
 * concurrency 1 bound what concurrency can add on a machine with few cores: N cores / that.
 *
 * It prints the figures and whether the goals hold (GOALS: ratios against bare Playwright in the same run); it never
 * fails on them. The database of BENCH_DATABASE_URL (default
 * mysql://root@127.0.0.1:3306/qa_bench_runs) is dropped and created again, so its name must contain "bench".
 * BENCH_LEVELS (1,2,4) picks the concurrency levels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { loadConfig, type Config } from '../src/config.js';
import { createLogger, type Logger } from '../src/logger.js';
import type { Principal } from '../src/core/principal.js';
import { createApiKey } from '../src/identity/api-keys.js';
import { createRulePlanner } from '../src/planner/rule-planner.js';
import { JobEvent } from '../src/store/entities/job-event.entity.js';
import { Finding } from '../src/store/entities/finding.entity.js';
import { Job } from '../src/store/entities/job.entity.js';
import { openStore } from '../src/store/open-store.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../test/fixtures/demo-app/index.js';
import { insertRepository } from '../test/support/check-fixtures.js';
import { freshBenchDatabase } from './support/database.js';
import { intFromEnv } from './support/config.js';
import { addCpu, cpuBetween, NO_CPU, PROCESS_KINDS, sampleCpu, type CpuUse } from './support/cpu.js';
import { canPin, onCpus } from './support/affinity.js';
import { barePlaywrightThroughput, launchBare, signInJob, type BareLevel } from './support/bare-playwright.js';
import { JobFinishes } from './support/job-finishes.js';
import { startBenchWorker, type BenchWorker } from './support/run-worker.js';
import { fmt, percentile, table } from './support/stats.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_bench_runs';
const RUNS = intFromEnv('BENCH_RUNS', 20);
const BATCH = intFromEnv('BENCH_BATCH', 16);
/**
 * One round's concurrency ratio scatters by ±20 % on a 2-core machine (0.74–1.14 in one run of nine rounds); the
 * median of five is steadier than that of three for about a minute more.
 */
const ROUNDS = intFromEnv('BENCH_ROUNDS', 5);
const LEVELS = (process.env.BENCH_LEVELS || '1,2,4').split(',').map((level) => Number(level.trim()));
/**
 * Issue 13's goals, both against bare Playwright in the same run (the figure that holds on a noisy machine): a
 * replay's p50 at most 1.5x bare Playwright's time per job at concurrency 1, and our concurrency-2 gain at least
 * 0.95 of bare Playwright's.
 */
const GOALS = { replayVsBare: 1.5, scalingVsBare: 0.95 };
/**
 * Issue 25's cost goals, tighter, also against bare Playwright in the same run: a replay's p50 within 1.15x, the
 * replays' throughput at least 0.9x bare Playwright's at every concurrency level (the medians of the rounds), and at
 * most 30 ms of rule planning per planned step of a natural-language run.
 */
const GROUNDED_GOALS = { replayVsBare: 1.15, throughputVsBare: 0.9, planningMsPerStep: 30 };

/** Six steps: open /, open /login, fill Email, fill Password, click Sign in (lands on /products), check a text. */
const TASK = 'Open the home page, sign in as the demo user, and check that the page shows "Desk Lamp"';
const SECRETS: Record<string, string> = { QA_BENCH_DEMO_EMAIL: DEFAULT_ACCOUNT.email, QA_BENCH_DEMO_PASSWORD: DEFAULT_ACCOUNT.password };

if (LEVELS.some((level) => !Number.isInteger(level) || level < 1)) throw new Error(`BENCH_LEVELS must be positive integers, got "${process.env.BENCH_LEVELS}"`);

const watchdog = setTimeout(() => {
  console.error('bench: still running after 15 min, giving up');
  process.exit(1);
}, 15 * 60_000);
watchdog.unref();

// ---------------------------------------------------------------------------------------------------------------
// Jobs and their ends

interface Setup {
  organizationId: string;
  principal: Principal;
  repositoryId: string;
  demo: DemoApp;
  /** The browser executable the worker runs, which bare Playwright runs too. */
  executablePath: string;
}

interface Timed {
  jobId: string;
  ms: number;
  status: string;
}

async function runOne(worker: BenchWorker, finishes: JobFinishes, setup: Setup, checkId?: string): Promise<Timed> {
  const began = performance.now();
  const created = await worker.jobs.create(setup.principal, {
    repositoryId: setup.repositoryId,
    ...(checkId ? { checkId } : { naturalLanguageTask: TASK }),
    baseUrl: setup.demo.url,
    networkAllowlist: [],
    trigger: 'cli',
  });
  if (created.kind !== 'runnable') throw new Error(`the task was not runnable: ${JSON.stringify(created.resolution)}`);
  const status = await finishes.wait(created.jobId);
  return { jobId: created.jobId, ms: performance.now() - began, status };
}

/** Throws with the job's findings when a run did not pass: a bench of failing runs measures nothing. */
async function assertPassed(dataSource: DataSource, timed: Timed): Promise<void> {
  if (timed.status === 'passed') return;
  const findings = await dataSource.getRepository(Finding).find({ where: { jobId: timed.jobId }, order: { position: 'ASC' } });
  const last = await dataSource.getRepository(JobEvent).find({ where: { jobId: timed.jobId }, order: { seq: 'DESC' }, take: 1 });
  throw new Error(
    `job ${timed.jobId} ended ${timed.status}: ${findings.map((finding) => `${finding.title} (${finding.detail ?? ''})`).join('; ') || JSON.stringify(last[0]?.data)}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Where the time goes, from the events' timestamps (all written by this process's clock)

interface Phases {
  /** job.created -> job.queued: the job service (planner for NL, check lookup for a replay). */
  create: number;
  /** job.queued -> job.started: queue pickup and the `start` checkpoint. */
  pickup: number;
  /** job.started -> first step.started: the browser context, the trace starting. */
  setup: number;
  /** Sum of the steps' own `ms` (the page actions). */
  actions: number;
  /** Sum over steps of step.started -> step.passed minus the action: screenshot, axe, artifact writes, commits. */
  stepOverhead: number;
  /** Last step.passed -> job.passed: trace stop, scrub, zip, store; compile (NL); finish. */
  wrapUp: number;
}

async function phasesOf(dataSource: DataSource, jobId: string): Promise<Phases> {
  const events = await dataSource.getRepository(JobEvent).find({ where: { jobId }, order: { seq: 'ASC' } });
  const at = (type: string) => events.find((event) => event.type === type)?.at.getTime() ?? Number.NaN;
  const lastAt = (type: string) => events.filter((event) => event.type === type).at(-1)?.at.getTime() ?? Number.NaN;
  let actions = 0;
  let stepOverhead = 0;
  let startedAt = Number.NaN;
  for (const event of events) {
    if (event.type === 'step.started') startedAt = event.at.getTime();
    if (event.type === 'step.passed' || event.type === 'step.failed') {
      const ms = Number((event.data as { ms?: number }).ms ?? 0);
      actions += ms;
      stepOverhead += event.at.getTime() - startedAt - ms;
    }
  }
  return {
    create: at('job.queued') - at('job.created'),
    pickup: at('job.started') - at('job.queued'),
    setup: at('step.started') - at('job.started'),
    actions,
    stepOverhead,
    wrapUp: lastAt('job.passed') - lastAt('step.passed'),
  };
}

// ---------------------------------------------------------------------------------------------------------------

function benchConfig(concurrency: number, artifactsDir: string): Config {
  return loadConfig(
    { DATABASE_URL, LOG_LEVEL: 'error', LOG_FORMAT: 'json', WORKER_CONCURRENCY: String(concurrency), ARTIFACTS_DIR: artifactsDir },
    { isTTY: false },
  );
}

async function withWorker<T>(config: Config, logger: Logger, dataSource: DataSource, finishes: JobFinishes, work: (worker: BenchWorker) => Promise<T>): Promise<T> {
  const worker = await startBenchWorker(config, logger, dataSource, { readSecret: (name) => SECRETS[name], eventsWritten: finishes.written });
  try {
    return await work(worker);
  } finally {
    await worker.stop();
  }
}

interface LatencyResult {
  cpu: CpuUse;
  nl: Timed[];
  replay: Timed[];
  /** Bare Playwright's time for the same six steps, one job at a time, interleaved with the runs (ms). */
  bare: number[];
  nlPhases: Phases[];
  replayPhases: Phases[];
  checkId: string;
}

async function latencyPhase(worker: BenchWorker, dataSource: DataSource, finishes: JobFinishes, setup: Setup): Promise<LatencyResult> {
  const warmNl = await runOne(worker, finishes, setup);
  await assertPassed(dataSource, warmNl);
  const job = await dataSource.getRepository(Job).findOneByOrFail({ id: warmNl.jobId });
  const checkId = job.checkId!;
  await assertPassed(dataSource, await runOne(worker, finishes, setup, checkId));
  const nl: Timed[] = [];
  const replay: Timed[] = [];
  const bare: number[] = [];
  // Bare Playwright's job between the runs, in a browser of its own (warmed too), so the replay's goal compares
  // two latencies of the same minutes; its CPU is left out of the runs' figures.
  const bareBrowser = await launchBare(setup.executablePath);
  const bareJob = () => signInJob(bareBrowser, setup.demo.url, DEFAULT_ACCOUNT);
  let cpu = NO_CPU;
  try {
    await bareJob();
    for (let n = 0; n < RUNS; n++) {
      const before = sampleCpu();
      const a = await runOne(worker, finishes, setup);
      const b = await runOne(worker, finishes, setup, checkId);
      cpu = addCpu(cpu, cpuBetween(before, sampleCpu()));
      await assertPassed(dataSource, a);
      nl.push(a);
      await assertPassed(dataSource, b);
      replay.push(b);
      const began = performance.now();
      await bareJob();
      bare.push(performance.now() - began);
      process.stdout.write(`\r  latency: ${n + 1}/${RUNS} rounds`);
    }
  } finally {
    await bareBrowser.close();
  }
  process.stdout.write('\n');
  return {
    cpu,
    nl,
    replay,
    bare,
    checkId,
    nlPhases: await Promise.all(nl.map((timed) => phasesOf(dataSource, timed.jobId))),
    replayPhases: await Promise.all(replay.map((timed) => phasesOf(dataSource, timed.jobId))),
  };
}

interface ThroughputResult {
  cpu: CpuUse;
  concurrency: number;
  /** Set when the worker and its browser ran on one core only. */
  oneCore?: boolean;
  jobs: number;
  seconds: number;
  perMinute: number;
  p50: number;
  max: number;
}

async function throughputLevel(
  worker: BenchWorker,
  dataSource: DataSource,
  finishes: JobFinishes,
  setup: Setup,
  checkId: string,
  concurrency: number,
  oneCore = false,
): Promise<ThroughputResult> {
  // Warm: a browser, and as many contexts as will run at once.
  for (const warm of await Promise.all(Array.from({ length: concurrency }, () => runOne(worker, finishes, setup, checkId)))) await assertPassed(dataSource, warm);
  const before = sampleCpu();
  const began = performance.now();
  const timed = await Promise.all(Array.from({ length: BATCH }, () => runOne(worker, finishes, setup, checkId)));
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuBetween(before, sampleCpu());
  for (const one of timed) await assertPassed(dataSource, one);
  const result = {
    cpu,
    concurrency,
    ...(oneCore ? { oneCore } : {}),
    jobs: BATCH,
    seconds,
    perMinute: (BATCH / seconds) * 60,
    p50: percentile(timed.map((one) => one.ms), 50),
    max: percentile(timed.map((one) => one.ms), 100),
  };
  console.log(`  concurrency ${concurrency}${oneCore ? ' on one core' : ''}: ${BATCH} replays in ${fmt(seconds, 2)} s, ${fmt(result.perMinute, 1)} jobs/min`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function median(phases: Phases[], key: keyof Phases): string {
  return fmt(percentile(phases.map((phase) => phase[key]), 50), 0);
}

/**
 * The concurrency ratio of one round: ours (concurrency 2 ÷ 1) ÷ bare Playwright's (2 ÷ 1), all four from that round.
 * Taken per round and then the median, a slow spell of the machine during one round moves one of the ratios, not the
 * four medians it would otherwise be made of (each from whichever round happened to be in the middle for that level).
 */
function scalingOfRound(ours: readonly ThroughputResult[], bare: readonly BareLevel[]): number {
  const rate = (levels: readonly { concurrency: number; perMinute: number; oneCore?: boolean }[], concurrency: number) =>
    levels.find((level) => level.concurrency === concurrency && !level.oneCore)?.perMinute ?? Number.NaN;
  return (rate(ours, 2) / rate(ours, 1)) / (rate(bare, 2) / rate(bare, 1));
}

/**
 * What planning costs a natural-language run per planned step: the rule planner interpreting the task (as job
 * creation does), timed alone over many rounds, and the whole difference between a run and a replay of its check
 * per step (planning, grounding each step on the live page, per-step screenshots and compiling: an upper bound).
 */
async function planningCost(): Promise<{ msPerStep: number; steps: number }> {
  const planner = createRulePlanner();
  const context = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: [] };
  const first = await planner.interpret(TASK, context);
  const steps = first.kind === 'runnable' ? first.plan.steps.length : 0;
  const rounds = 200;
  const began = performance.now();
  for (let round = 0; round < rounds; round++) await planner.interpret(TASK, context);
  return { msPerStep: (performance.now() - began) / rounds / Math.max(1, steps), steps };
}

function report(latency: LatencyResult, throughput: ThroughputResult[], bare: BareLevel[], context: { version: string; scalingRounds: number[]; planning: { msPerStep: number; steps: number } }): void {
  const row = (label: string, runs: Timed[]) => {
    const ms = runs.map((run) => run.ms);
    return [label, String(runs.length), fmt(percentile(ms, 50), 0), fmt(percentile(ms, 90), 0), fmt(percentile(ms, 100), 0)];
  };
  const nlP50 = percentile(latency.nl.map((run) => run.ms), 50);
  const replayP50 = percentile(latency.replay.map((run) => run.ms), 50);
  console.log('');
  console.log(`Runs bench: "${TASK}" (6 steps: 3 pages, 2 secret fills, 1 text check) on the demo shop`);
  console.log(`Server: ${context.version} | Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => fmt(load, 2)).join(' ')}`);
  console.log('');
  console.log(`One job at a time, warm browser (${RUNS} of each, interleaved, after one warm-up each); wall time from create to the commit that ends the job`);
  const bareRow = ['bare Playwright, the same 6 steps (between the runs)', String(latency.bare.length), ...[50, 90, 100].map((p) => fmt(percentile(latency.bare, p), 0))];
  console.log(
    table(
      ['run', 'runs', 'p50 ms', 'p90 ms', 'max ms'],
      [row('natural-language run (plans, runs, compiles the check)', latency.nl), row('replay of the compiled check', latency.replay), bareRow],
      [false, true, true, true, true],
    ),
  );
  console.log(`  replay / NL (p50): ${fmt(replayP50 / nlP50, 2)}`);
  const jobs = latency.nl.length + latency.replay.length;
  const { cpu } = latency;
  console.log(
    `  CPU per job: ${fmt((cpu.tree / jobs) * 1000, 0)} ms of this process and its browser, ${fmt((cpu.database / jobs) * 1000, 0)} ms of the database server ` +
      `(${fmt((cpu.tree + cpu.database) / cpu.wallSeconds, 2)} cores busy while one job runs at a time); others on the machine meanwhile: ${fmt(cpu.others / cpu.wallSeconds, 2)} cores`,
  );
  console.log('');
  console.log('Where the time goes (p50 per phase, ms; from the events\' timestamps)');
  const phaseRows = (label: string, phases: Phases[]) => [
    label,
    median(phases, 'create'),
    median(phases, 'pickup'),
    median(phases, 'setup'),
    median(phases, 'actions'),
    median(phases, 'stepOverhead'),
    median(phases, 'wrapUp'),
  ];
  console.log(
    table(
      ['run', 'create', 'pickup', 'context+trace start', '6 actions', 'per-step screenshot/axe/writes', 'trace+compile+finish'],
      [phaseRows('natural-language', latency.nlPhases), phaseRows('replay', latency.replayPhases)],
      [false, true, true, true, true, true, true],
    ),
  );
  console.log('');
  const base = throughput.find((level) => level.concurrency === 1 && !level.oneCore);
  console.log(`Throughput: ${BATCH} replays created at once on one worker, fresh per level, warmed first (median of ${ROUNDS} rounds)`);
  console.log(
    table(
      ['concurrency', 'jobs', 'seconds', 'jobs/min', 'vs concurrency 1', 'job p50 ms', 'job max ms', 'CPU ms/job (ours+db)', 'of which Node', 'cores busy (ours+db)', 'others, cores'],
      throughput.map((level) => [
        `${level.concurrency}${level.oneCore ? ' (1 core)' : ''}`,
        String(level.jobs),
        fmt(level.seconds, 2),
        fmt(level.perMinute, 1),
        base ? fmt(level.perMinute / base.perMinute, 2) : 'n/a',
        fmt(level.p50, 0),
        fmt(level.max, 0),
        fmt(((level.cpu.tree + level.cpu.database) / level.jobs) * 1000, 0),
        fmt((level.cpu.node / level.jobs) * 1000, 0),
        fmt((level.cpu.tree + level.cpu.database) / level.cpu.wallSeconds, 2),
        fmt(level.cpu.others / level.cpu.wallSeconds, 2),
      ]),
      [true, true, true, true, true, true, true, true, true, true, true],
    ),
  );
  const bareBase = bare.find((level) => level.concurrency === 1);
  console.log('');
  console.log(`Baseline: the same 6 steps by bare Playwright in the same browser build, fresh per level as ours, a new context per job, nothing else (${BATCH} jobs per level, median of ${ROUNDS} rounds)`);
  console.log(
    table(
      ['concurrency', 'jobs/min', 'vs concurrency 1', 'service vs concurrency 1', 'CPU ms/job', 'of which Node', 'cores busy'],
      bare.map((level) => {
        const service = throughput.find((one) => one.concurrency === level.concurrency && !one.oneCore);
        return [
          String(level.concurrency),
          fmt(level.perMinute, 1),
          bareBase ? fmt(level.perMinute / bareBase.perMinute, 2) : 'n/a',
          service && base ? fmt(service.perMinute / base.perMinute, 2) : 'n/a',
          fmt((level.cpu.tree / level.jobs) * 1000, 0),
          fmt((level.cpu.node / level.jobs) * 1000, 0),
          fmt(level.cpu.tree / level.cpu.wallSeconds, 2),
        ];
      }),
      [true, true, true, true, true, true, true],
    ),
  );
  console.log('');
  console.log('Where the CPU goes (the median rounds above): ms per job, and in brackets cores busy, by process');
  const kindRow = (label: string, cpu: CpuUse, jobs: number) => [
    label,
    ...PROCESS_KINDS.map((kind) => `${fmt((cpu.kinds[kind] / jobs) * 1000, 0)} (${fmt(cpu.kinds[kind] / cpu.wallSeconds, 2)})`),
    `${fmt((cpu.database / jobs) * 1000, 0)} (${fmt(cpu.database / cpu.wallSeconds, 2)})`,
  ];
  console.log(
    table(
      ['run', ...PROCESS_KINDS.map((kind) => (kind === 'node' ? 'Node (service+demo app)' : kind)), 'database'],
      [
        ...throughput.map((level) => kindRow(`ours, concurrency ${level.concurrency}${level.oneCore ? ' (1 core)' : ''}`, level.cpu, level.jobs)),
        ...bare.map((level) => kindRow(`bare Playwright, concurrency ${level.concurrency}`, level.cpu, level.jobs)),
      ],
      [false, ...PROCESS_KINDS.map(() => true), true],
    ),
  );
  const two = throughput.find((level) => level.concurrency === 2 && !level.oneCore);
  const twoOnOneCore = throughput.find((level) => level.concurrency === 2 && level.oneCore);
  const holds = (ok: boolean) => (ok ? 'HOLDS' : 'DOES NOT HOLD');
  // The goal: against bare Playwright's own p50, one job at a time in the same minutes; the second figure is against
  // its time per job at concurrency 1 in the throughput rounds (back to back, in other minutes), as reported before.
  const bareP50 = percentile(latency.bare, 50);
  const replayVsBare = replayP50 / bareP50;
  const bareMsPerJob = bareBase ? 60_000 / bareBase.perMinute : Number.NaN;
  const latencyOk = replayVsBare <= GOALS.replayVsBare;
  const scaleRatio = base && two ? two.perMinute / base.perMinute : Number.NaN;
  const bareTwo = bare.find((level) => level.concurrency === 2);
  const bareRatio = bareBase && bareTwo ? bareTwo.perMinute / bareBase.perMinute : Number.NaN;
  // The goal is judged on the median of the rounds' own ratios (scalingOfRound); the medians of the tables give the second figure.
  const scalingVsBare = percentile(context.scalingRounds, 50);
  const scaleOk = scalingVsBare >= GOALS.scalingVsBare;
  console.log('');
  console.log('Goals (ratios against bare Playwright in this run):');
  console.log(
    `  replay p50 / bare Playwright's p50 for the same steps <= ${GOALS.replayVsBare}: ${holds(latencyOk)} (${fmt(replayVsBare, 2)}x: ${fmt(replayP50, 0)} ms against ${fmt(bareP50, 0)} ms; against its time per job at concurrency 1 in the throughput rounds, ${fmt(replayP50 / bareMsPerJob, 2)}x: ${fmt(bareMsPerJob, 0)} ms)`,
  );
  console.log(
    `  concurrency 2 / concurrency 1, ours / bare Playwright's >= ${GOALS.scalingVsBare}: ${holds(scaleOk)} (${fmt(scalingVsBare, 2)}, the median of the rounds' ${context.scalingRounds.map((ratio) => fmt(ratio, 2)).join(', ')}; from the tables' medians ${fmt(scaleRatio / bareRatio, 2)}: ${fmt(scaleRatio, 2)}x against ${fmt(bareRatio, 2)}x on ${os.cpus().length} CPUs)`,
  );
  if (two && twoOnOneCore) {
    console.log(
      `  (throughput with the cores: concurrency 2 on ${os.cpus().length} cores is ${fmt(two.perMinute / twoOnOneCore.perMinute, 2)}x concurrency 2 on one core)`,
    );
  }
  console.log(`  => ${latencyOk && scaleOk ? 'ALL GOALS HOLD' : 'NOT ALL GOALS HOLD'}`);
  console.log('');
  console.log("Issue 25's goals (grounded planning must not cost replays; ratios against bare Playwright in this run):");
  const groundedLatencyOk = replayVsBare <= GROUNDED_GOALS.replayVsBare;
  console.log(`  replay p50 / bare Playwright's p50 <= ${GROUNDED_GOALS.replayVsBare}: ${holds(groundedLatencyOk)} (${fmt(replayVsBare, 2)}x)`);
  let throughputOk = true;
  for (const level of bare) {
    const service = throughput.find((one) => one.concurrency === level.concurrency && !one.oneCore);
    const ratio = service ? service.perMinute / level.perMinute : Number.NaN;
    const ok = ratio >= GROUNDED_GOALS.throughputVsBare;
    throughputOk &&= ok;
    console.log(`  throughput at concurrency ${level.concurrency}, ours / bare Playwright's >= ${GROUNDED_GOALS.throughputVsBare}: ${holds(ok)} (${fmt(ratio, 2)}: ${fmt(service?.perMinute ?? Number.NaN, 1)} against ${fmt(level.perMinute, 1)} jobs/min)`);
  }
  const { planning } = context;
  const planningOk = planning.msPerStep <= GROUNDED_GOALS.planningMsPerStep;
  const runOverReplay = (nlP50 - replayP50) / Math.max(1, planning.steps);
  console.log(
    `  rule planning per planned step <= ${GROUNDED_GOALS.planningMsPerStep} ms: ${holds(planningOk)} (${fmt(planning.msPerStep, 3)} ms a step, ${planning.steps} steps; ` +
      `a run's p50 over its replay's, per step, with grounding, screenshots and compiling: ${fmt(runOverReplay, 0)} ms)`,
  );
  console.log(`  => ${groundedLatencyOk && throughputOk && planningOk ? 'ALL GOALS HOLD' : 'NOT ALL GOALS HOLD'}`);
}

// ---------------------------------------------------------------------------------------------------------------

const began = performance.now();
const { version } = await freshBenchDatabase(DATABASE_URL);
const artifactsDir = mkdtempSync(join(os.tmpdir(), 'qa-bench-runs-'));
const logger = createLogger(benchConfig(1, artifactsDir).log, process.stderr);
const dataSource = await openStore(benchConfig(1, artifactsDir), logger);
const demo = await startDemoApp();
try {
  const { organization, principal } = await createApiKey(dataSource, 'bench');
  const repositoryId = await insertRepository(dataSource, organization.id, {
    baseUrl: demo.url,
    testValueSecretRefs: { demoEmail: 'QA_BENCH_DEMO_EMAIL', demoPassword: 'QA_BENCH_DEMO_PASSWORD' },
  });

  const setup: Setup = { organizationId: organization.id, principal, repositoryId, demo, executablePath: benchConfig(1, artifactsDir).browser.executablePath };
  const finishes = new JobFinishes(dataSource);
  console.log('measuring…');
  const latency = await withWorker(benchConfig(4, artifactsDir), logger, dataSource, finishes, (worker) => latencyPhase(worker, dataSource, finishes, setup));
  // Rounds of every level of ours, then of bare Playwright's: drift on a shared machine hits both alike.
  const ours: ThroughputResult[][] = [];
  const bares: BareLevel[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`  round ${round} of ${ROUNDS}`);
    const levels: ThroughputResult[] = [];
    for (const level of LEVELS) {
      levels.push(await withWorker(benchConfig(level, artifactsDir), logger, dataSource, finishes, (worker) =>
        throughputLevel(worker, dataSource, finishes, setup, latency.checkId, level)));
    }
    // The same level with the worker and its browser on one core: how much the machine's other cores add.
    if (LEVELS.includes(2) && os.cpus().length >= 2 && canPin()) {
      levels.push(await onCpus('0', () => withWorker(benchConfig(2, artifactsDir), logger, dataSource, finishes, (worker) =>
        throughputLevel(worker, dataSource, finishes, setup, latency.checkId, 2, true))));
    }
    ours.push(levels);
    console.log('  baseline: bare Playwright…');
    bares.push(await barePlaywrightThroughput({
      executablePath: setup.executablePath,
      baseUrl: demo.url,
      account: DEFAULT_ACCOUNT,
      levels: LEVELS,
      jobs: BATCH,
    }));
  }
  const medianRound = <T extends { perMinute: number }>(rounds: T[]): T => [...rounds].sort((a, b) => a.perMinute - b.perMinute)[Math.floor(rounds.length / 2)]!;
  const throughput = ours[0]!.map((_level, index) => medianRound(ours.map((levels) => levels[index]!)));
  const bare = bares[0]!.map((_level, index) => medianRound(bares.map((levels) => levels[index]!)));
  const scalingRounds = ours.map((levels, round) => scalingOfRound(levels, bares[round]!));
  report(latency, throughput, bare, { version, scalingRounds, planning: await planningCost() });
  console.log(`(run took ${fmt((performance.now() - began) / 1000, 0)} s)`);
} finally {
  await demo.close();
  await dataSource.destroy();
  rmSync(artifactsDir, { recursive: true, force: true });
}
// Agenda 6 leaves one timer per finished run (its "is the job still alive" check sleeps half the lock lifetime,
// 5 min here, without being cancelled when the run ends), so the process would linger; everything of ours is closed.
process.exit(0);
