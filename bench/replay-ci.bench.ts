/**
 * `qa replay` in CI against Playwright Test (issue 29): the same 20 compiled checks of the demo shop, replayed by a
 * spawned `qa replay --parallel 2` against a service with one worker at concurrency 2, and run as their generated
 * sources (`GET /api/checks/:id/source`) by `playwright test --workers 2`, in the same run.
 *
 *   npm run bench:replay-ci        (builds dist/ first, incrementally: `qa replay` runs from it as `npm start` does)
 *
 * The service is composed as `qa start` composes it (HTTP and the worker in this process, real Chromium, the egress
 * proxy, artifacts on disk) and runs for the whole bench: a CI pipeline meets a service that is already up, browser
 * warm. The checks are compiled by passing natural-language runs of 20 tasks (the rule planner, no model) before
 * anything is measured. The demo shop runs in a child process of its own, so neither side's CPU holds its work.
 *
 * Per round (BENCH_ROUNDS, default 3; the two sides take turns going first): wall time of each command from spawn to
 * exit, the ratio replay ÷ Playwright Test (goal ≤ 1.2×), and CPU (user + sys):
 * - `qa replay`: the CLI process (GNU time) and the service's side: this Node process (process.cpuUsage) and its
 *   browser (/proc, bench/support/cpu.ts), the database server beside it;
 * - Playwright Test: the command with its workers and browsers (GNU time: every descendant it waited for).
 * Then where a replay's time goes, from its events (median over the replays): queue pickup, context start, the steps,
 * the wrap-up; and the gaps the CLI adds (creating a job after the previous one finished). BENCH_CPU_PROFILE=<file>
 * writes a CPU profile of this process (the service) during the first round's `qa replay` (`.cpuprofile`).
 *
 * The database of BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_replaybench) is dropped and created
 * again, so its name must contain "bench". It prints the figures and whether the goal holds; it never fails on them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataSource } from 'typeorm';
import { startAll, type RunningHttpRole } from '../src/compose/index.js';
import { loadConfig, type Config } from '../src/config.js';
import type { Principal } from '../src/core/principal.js';
import { createApiKey } from '../src/identity/api-keys.js';
import { createLogger } from '../src/logger.js';
import { createRulePlanner } from '../src/planner/rule-planner.js';
import { Finding } from '../src/store/entities/finding.entity.js';
import { JobEvent } from '../src/store/entities/job-event.entity.js';
import { Job } from '../src/store/entities/job.entity.js';
import { openStore } from '../src/store/open-store.js';
import { DEFAULT_ACCOUNT } from '../test/fixtures/demo-app/index.js';
import { insertRepository } from '../test/support/check-fixtures.js';
import { intFromEnv } from './support/config.js';
import { cpuBetween, sampleCpu, type CpuUse } from './support/cpu.js';
import { freshBenchDatabase } from './support/database.js';
import { startDemoSiteProcess, type DemoSiteProcess } from './support/demo-site-process.js';
import { JobFinishes } from './support/job-finishes.js';
import { startCpuProfile } from './support/cpu-profile.js';
import { fmt, percentile, table } from './support/stats.js';
import { canTime, runTimed, type TimedRun } from './support/timed-command.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const QA_ENTRY = join(REPO, 'dist', 'src', 'cli', 'main.js');
/** What `npx playwright` runs, without npm's own start (about 0.3 s of CPU that would count against Playwright Test). */
const PLAYWRIGHT_CLI = join(REPO, 'node_modules', '.bin', 'playwright');
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/qa_replaybench';
const ROUNDS = intFromEnv('BENCH_ROUNDS', 3);
/** Where to write a CPU profile of this process (the service) during the first round's `qa replay`, if anywhere. */
const PROFILE = process.env.BENCH_CPU_PROFILE;
const PARALLEL = 2;
/** Issue 29: `qa replay` at most 1.2x Playwright Test's wall time for the same checks. */
const GOAL = 1.2;
/** Where the service reads the demo account's secrets, and the generated sources read them (the same names). */
const SECRETS: Record<string, string> = { QA_BENCH_DEMO_EMAIL: DEFAULT_ACCOUNT.email, QA_BENCH_DEMO_PASSWORD: DEFAULT_ACCOUNT.password };
/** ../shared/STACK.md: Debian's Chromium, and no connections of its own to the internet (as the worker launches it). */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** 20 checks of the demo shop, one to six steps: reading pages, fields, a dialog, signing in. */
const TASKS = [
  'Open the home page, sign in as the demo user, and check that the page shows "Desk Lamp"',
  'Open the home page, sign in as the demo user, and check that the page shows "Blue Mug"',
  'Open the home page, sign in as the demo user, and check that the page shows "Notebook"',
  'Open the home page, sign in as the demo user, go to /cart and check that the page shows "Your cart is empty."',
  'Go to /pricing and check that the page shows "Starter"',
  'Go to /pricing and check that the page shows "Team"',
  'Go to /pricing and check that the Plans list has 3 items',
  'Go to /pricing and check that the page title says pricing',
  'Go to /login and check that the Email field is empty',
  'Go to /login and check that the Password field is empty',
  'Go to /login, type "a@b.test" into the Email field and check that the Email field contains "a@b.test"',
  'Go to /login, type "someone@example.test" into the Email field and check that the Email field contains "someone@example.test"',
  'Go to /account/subscription, click "Compare plans", click "Cancel" and check that the page says "Plan: Pro (active)"',
  'Go to /account/subscription and check that the page shows "Cancel subscription"',
  'Open the home page and check that the page shows "Demo Shop"',
  'Open the home page and check that the page shows "Pricing"',
  'Open the home page, click "Pricing" and check that the page shows "Starter"',
  'Open the home page, click "Sign in" and check that the page shows "Email"',
  'Go to /login, sign in as the demo user, and check that the page shows "Welcome back!"',
  'Open the home page, sign in as the demo user, go to /pricing and check that the page shows "Team"',
];

const watchdog = setTimeout(() => {
  console.error('bench: still running after 15 min, giving up');
  process.exit(1);
}, 15 * 60_000);
watchdog.unref();

// ---------------------------------------------------------------------------------------------------------------
// The service and its checks

function serviceConfig(artifactsDir: string): Config {
  const config = loadConfig({ DATABASE_URL, LOG_LEVEL: 'error', LOG_FORMAT: 'json', WORKER_CONCURRENCY: String(PARALLEL), ARTIFACTS_DIR: artifactsDir }, { isTTY: false });
  return { ...config, http: { ...config.http, port: 0 } };
}

async function whyNotPassed(dataSource: DataSource, jobId: string, status: string): Promise<string> {
  const findings = await dataSource.getRepository(Finding).find({ where: { jobId }, order: { position: 'ASC' } });
  const last = await dataSource.getRepository(JobEvent).find({ where: { jobId }, order: { seq: 'DESC' }, take: 1 });
  return `${status}: ${findings.map((finding) => `${finding.title} (${finding.detail ?? ''})`).join('; ') || JSON.stringify(last[0]?.data)}`;
}

/** Compiles every task into an active check by a passing natural-language run, two at a time; throws on any other end. */
async function compileChecks(service: RunningHttpRole, dataSource: DataSource, finishes: JobFinishes, setup: { repositoryId: string; baseUrl: string; principal: Principal }): Promise<string[]> {
  const checkIds: string[] = new Array<string>(TASKS.length);
  const problems: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < TASKS.length) {
      const index = next++;
      const task = TASKS[index]!;
      const created = await service.services.jobs.create(setup.principal, { repositoryId: setup.repositoryId, naturalLanguageTask: task, baseUrl: setup.baseUrl, networkAllowlist: [], trigger: 'cli' });
      if (created.kind !== 'runnable') {
        problems.push(`"${task}" was not runnable: ${JSON.stringify(created.resolution)}`);
        continue;
      }
      const status = await finishes.wait(created.jobId);
      if (status !== 'passed') problems.push(`"${task}" ${await whyNotPassed(dataSource, created.jobId, status)}`);
      checkIds[index] = created.checkId;
    }
  };
  await Promise.all([lane(), lane()]);
  if (problems.length > 0) throw new Error(`not every task compiled into a check:\n  ${problems.join('\n  ')}`);
  return checkIds;
}

// ---------------------------------------------------------------------------------------------------------------
// The two sides

interface Side {
  run: TimedRun;
  /** The service's side (replay only): this process and its browser, and the database server. */
  service?: CpuUse;
  /** The demo shop's CPU meanwhile (both sides load the same pages). */
  siteSeconds: number;
  /** CPU seconds of everything else on the machine meanwhile (other people's work on a shared machine). */
  othersSeconds: number;
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(QA_|DATABASE_URL|NODE_OPTIONS|NODE_PATH|JEST_)/.test(name)) delete env[name];
  return { ...env, FORCE_COLOR: '0', ...extra };
}

async function replaySide(client: { apiUrl: string; key: string }, repositoryId: string, site: DemoSiteProcess, profile?: string): Promise<Side> {
  const profiler = profile ? await startCpuProfile() : undefined;
  const before = sampleCpu();
  const siteBefore = site.cpuSeconds();
  const run = await runTimed(process.execPath, [QA_ENTRY, 'replay', '--repository', repositoryId, '--base-url', site.url, '--parallel', String(PARALLEL)], {
    cwd: REPO,
    env: childEnv({ QA_API_URL: client.apiUrl, QA_API_KEY: client.key, LOG_LEVEL: 'silent' }),
  });
  const all = cpuBetween(before, sampleCpu());
  if (profiler && profile) await profiler.stop(profile);
  if (run.code !== 0) throw new Error(`qa replay exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  // This process's tree counts the CLI too once it has exited and been waited for.
  const cli = run.user + run.sys;
  const siteSeconds = site.cpuSeconds() - siteBefore;
  // The demo site is a child of this process too: its CPU is the site's, not the service's.
  return { run, service: { ...all, tree: all.tree - cli - siteSeconds }, siteSeconds, othersSeconds: all.others };
}

async function playwrightProject(apiUrl: string, key: string, checkIds: readonly string[], executablePath: string): Promise<string> {
  const dir = mkdtempSync(join(os.tmpdir(), 'qa-bench-replay-ci-'));
  const config = {
    testDir: '.',
    testMatch: '*.spec.ts',
    outputDir: './test-results',
    fullyParallel: true,
    retries: 0,
    reporter: [['line']],
    use: { launchOptions: { executablePath, args: CHROMIUM_ARGS } },
  };
  writeFileSync(join(dir, 'playwright.config.ts'), `export default ${JSON.stringify(config, null, 2)};\n`);
  for (const [index, checkId] of checkIds.entries()) {
    const answer = await fetch(`${apiUrl}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${key}` } });
    if (!answer.ok) throw new Error(`GET /api/checks/${checkId}/source answered ${answer.status}: ${await answer.text()}`);
    writeFileSync(join(dir, `check-${String(index + 1).padStart(2, '0')}.spec.ts`), await answer.text());
  }
  return dir;
}

async function playwrightSide(dir: string, site: DemoSiteProcess): Promise<Side> {
  const before = sampleCpu();
  const siteBefore = site.cpuSeconds();
  // The project sits outside the repository with no package.json: Playwright loads it as CommonJS, whose require
  // finds @playwright/test through NODE_PATH (test/integration/checks/playwright-project.ts says more).
  const run = await runTimed(PLAYWRIGHT_CLI, ['test', '--config', join(dir, 'playwright.config.ts'), '--workers', String(PARALLEL)], {
    cwd: dir,
    env: childEnv({ ...SECRETS, QA_BASE_URL: site.url, NODE_PATH: join(REPO, 'node_modules') }),
  });
  const all = cpuBetween(before, sampleCpu());
  if (run.code !== 0) throw new Error(`playwright test exited ${run.code}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
  const siteSeconds = site.cpuSeconds() - siteBefore;
  // The idle service's work meanwhile (this process, its browser, the database server) is not Playwright's: it is
  // counted with the others, as is the site's (a child of this process) in its own column.
  return { run, siteSeconds, othersSeconds: all.others + all.database + (all.tree - run.user - run.sys - siteSeconds) };
}

// ---------------------------------------------------------------------------------------------------------------
// Where a replay's time goes

interface ReplayPhases {
  /** job.queued -> job.started: the queue's pickup and the `start` checkpoint. */
  pickup: number;
  /** job.started -> first step.started: the browser context. */
  setup: number;
  /** first step.started -> last step ended. */
  steps: number;
  /** last step ended -> the job's end: finishing, evidence, the final commit. */
  wrapUp: number;
}

/** Every job id in the store (a few hundred at most): the replays of a round are the ids new after it. */
async function jobIds(dataSource: DataSource): Promise<Set<string>> {
  return new Set((await dataSource.getRepository(Job).find({ select: { id: true } })).map((job) => job.id));
}

interface ReplayJob {
  /** job.created and the job's end, from its events (this process's clock, ms). */
  createdAt: number;
  endedAt: number;
  phases: ReplayPhases;
}

async function replayJob(dataSource: DataSource, jobId: string): Promise<ReplayJob> {
  const events = await dataSource.getRepository(JobEvent).find({ where: { jobId }, order: { seq: 'ASC' } });
  const first = (type: string) => events.find((event) => event.type === type)?.at.getTime() ?? Number.NaN;
  const last = (types: string[]) => events.filter((event) => types.includes(event.type)).at(-1)?.at.getTime() ?? Number.NaN;
  const end = last(['job.passed', 'job.failed', 'job.errored']);
  const stepsEnd = last(['step.passed', 'step.failed']);
  return {
    createdAt: first('job.created'),
    endedAt: end,
    phases: { pickup: first('job.started') - first('job.queued'), setup: first('step.started') - first('job.started'), steps: stepsEnd - first('step.started'), wrapUp: end - stepsEnd },
  };
}

// ---------------------------------------------------------------------------------------------------------------

function cpuCells(seconds: number, wall: number): string[] {
  return [fmt(seconds, 2), fmt(seconds / wall, 2)];
}

interface Round {
  replay: Side;
  playwright: Side;
  /** The replays' phases (ms) and the gaps between one replay's end and the next one's creation in a lane. */
  phases: ReplayPhases[];
  gaps: number[];
  firstCreateMs: number;
}

function report(rounds: Round[], version: string): void {
  console.log(`\nMariaDB ${version}; ${os.cpus().length} cores; ${TASKS.length} checks, --parallel ${PARALLEL} / --workers ${PARALLEL}, worker concurrency ${PARALLEL}\n`);
  const rows = rounds.flatMap((round, index) => {
    const r = round.replay;
    const p = round.playwright;
    const rWall = r.run.wallMs / 1000;
    const pWall = p.run.wallMs / 1000;
    const service = r.service!;
    return [
      [`${index + 1}`, 'qa replay', fmt(rWall, 2), fmt(rWall / pWall, 2), ...cpuCells(r.run.user + r.run.sys, rWall), fmt(service.node, 2), fmt(service.tree - service.node, 2), fmt(service.database, 2), fmt(r.run.user + r.run.sys + service.tree + service.database, 2), fmt(r.siteSeconds, 2), fmt(r.othersSeconds / rWall, 2)],
      [`${index + 1}`, 'playwright test', fmt(pWall, 2), '', ...cpuCells(p.run.user + p.run.sys, pWall), '', '', '', fmt(p.run.user + p.run.sys, 2), fmt(p.siteSeconds, 2), fmt(p.othersSeconds / pWall, 2)],
    ];
  });
  console.log(table(
    ['round', 'command', 'wall s', 'ratio', 'cmd CPU s', 'cores', 'service Node s', 'service browser s', 'database s', 'total CPU s', 'site CPU s', 'others (cores)'],
    rows,
    [false, false, true, true, true, true, true, true, true, true, true, true],
  ));
  const ratios = rounds.map((round) => round.replay.run.wallMs / round.playwright.run.wallMs);
  const median = percentile(ratios, 50);
  const all = rounds.flatMap((round) => round.phases);
  const p50 = (pick: (phases: ReplayPhases) => number) => fmt(percentile(all.map(pick), 50), 0);
  console.log(`\nwhere a replay's time goes (p50 over ${all.length} replays, ms): pickup ${p50((one) => one.pickup)}, context ${p50((one) => one.setup)}, steps ${p50((one) => one.steps)}, wrap-up ${p50((one) => one.wrapUp)}`);
  const gaps = rounds.flatMap((round) => round.gaps);
  console.log(`the CLI's part: spawn to the first job created ${fmt(percentile(rounds.map((round) => round.firstCreateMs), 50), 0)} ms (median round); a lane's gap from one replay's end to the next one's creation p50 ${fmt(percentile(gaps, 50), 0)} ms, max ${fmt(percentile(gaps, 100), 0)} ms`);
  console.log(`\nGOAL: qa replay wall time at most ${GOAL}x playwright test's: ratio per round ${ratios.map((ratio) => fmt(ratio, 2)).join(', ')}; median ${fmt(median, 2)} => ${median <= GOAL ? 'HOLDS' : 'DOES NOT HOLD'}`);
}

/** The lanes' gaps: each replay created after an earlier one ended waits for that end to reach the CLI and its POST. */
function lanesGaps(jobs: readonly ReplayJob[]): number[] {
  const ends = jobs.slice(0, PARALLEL).map((job) => job.endedAt);
  const gaps: number[] = [];
  for (const job of jobs.slice(PARALLEL)) {
    // The replay that made room for this one: the earliest end not yet followed by a creation.
    ends.sort((a, b) => a - b);
    const freed = ends.shift()!;
    gaps.push(job.createdAt - freed);
    ends.push(job.endedAt);
  }
  return gaps;
}

if (!canTime()) throw new Error('bench:replay-ci reads each command\'s CPU from GNU time: install it (apt-get install time)');
const began = performance.now();
const { version } = await freshBenchDatabase(DATABASE_URL);
const artifactsDir = mkdtempSync(join(os.tmpdir(), 'qa-bench-replay-ci-artifacts-'));
const config = serviceConfig(artifactsDir);
const logger = createLogger(config.log, process.stderr);
const dataSource = await openStore(config, logger);
const site = await startDemoSiteProcess();
const finishes = new JobFinishes(dataSource);
const service = await startAll(config, logger, { dataSource, planner: createRulePlanner(), readSecret: (name) => SECRETS[name], eventsWritten: finishes.written });
let projectDir: string | undefined;
try {
  const { organization, principal, key } = await createApiKey(dataSource, 'bench');
  const repositoryId = await insertRepository(dataSource, organization.id, {
    baseUrl: site.url,
    testValueSecretRefs: { demoEmail: 'QA_BENCH_DEMO_EMAIL', demoPassword: 'QA_BENCH_DEMO_PASSWORD' },
  });
  const apiUrl = `http://${config.http.host}:${service.port}`;
  console.log(`compiling ${TASKS.length} checks from natural-language runs…`);
  const checkIds = await compileChecks(service, dataSource, finishes, { repositoryId, baseUrl: site.url, principal });
  projectDir = await playwrightProject(apiUrl, key, checkIds, config.browser.executablePath);
  const client = { apiUrl, key };
  // Warm-up, not counted: the CLI's and Playwright's first start (disk caches, Playwright's transform cache).
  console.log('warming up…');
  await playwrightSide(projectDir, site);
  await replaySide(client, repositoryId, site);
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const known = await jobIds(dataSource);
    const replayFirst = round % 2 === 1;
    let replay: Side | undefined;
    let playwright: Side | undefined;
    let spawnedAt = 0;
    for (const side of replayFirst ? ['replay', 'playwright'] : ['playwright', 'replay']) {
      if (side === 'replay') {
        spawnedAt = Date.now();
        replay = await replaySide(client, repositoryId, site, PROFILE && round === 1 ? PROFILE : undefined);
      } else playwright = await playwrightSide(projectDir, site);
    }
    const fresh = [...(await jobIds(dataSource))].filter((id) => !known.has(id));
    if (fresh.length !== TASKS.length) throw new Error(`expected ${TASKS.length} replays in round ${round}, found ${fresh.length}`);
    const jobs = (await Promise.all(fresh.map((id) => replayJob(dataSource, id)))).sort((a, b) => a.createdAt - b.createdAt);
    rounds.push({ replay: replay!, playwright: playwright!, phases: jobs.map((job) => job.phases), gaps: lanesGaps(jobs), firstCreateMs: jobs[0]!.createdAt - spawnedAt });
    console.log(`  round ${round}: qa replay ${fmt(replay!.run.wallMs / 1000, 2)} s, playwright test ${fmt(playwright!.run.wallMs / 1000, 2)} s`);
  }
  report(rounds, version);
  console.log(`(run took ${fmt((performance.now() - began) / 1000, 0)} s)`);
} finally {
  await service.stop();
  await site.stop();
  await dataSource.destroy();
  rmSync(artifactsDir, { recursive: true, force: true });
  if (projectDir) rmSync(projectDir, { recursive: true, force: true });
}
// Agenda 6 leaves one timer per finished run (see bench/runs.bench.ts), so the process would linger.
process.exit(0);
