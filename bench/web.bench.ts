/**
 * Dashboard bench (issue 27): what a first load costs, and how fast the two busiest screens render.
 *
 *   npm run build && npm run bench:web
 *
 * 1. The build's compressed JavaScript per screen (web/build/route-sizes.ts, from dist/web's manifest).
 * 2. Time to first render, headless Chromium (Playwright), the median of BENCH_ROUNDS (10) cold loads (a new
 *    browser context each: no cache, the session cookie only):
 *    - ours: the jobs screen with BENCH_JOBS (50, one page) jobs, until its oldest row shows; a job page with
 *      BENCH_EVENTS (2,000) events and BENCH_SCREENSHOTS (200) screenshots, until its steps show. The service
 *      is the dashboard tests' one (test/web/support/serve.ts: MariaDB, a worker, the fake identity provider); the
 *      long job is made from a real run on the demo app (test/support/large-job.ts).
 *    - peer, same run: Playwright's own HTML report (`--reporter=html`, the report Playwright users open) of a suite
 *      of the same size, served from loopback: its index with BENCH_JOBS tests until the last one shows, and one
 *      test with as many steps as the job page has events until its first step shows.
 * 3. The jobs list at BENCH_LIST_JOBS (100,000) jobs in one organization: every page of `GET /api/jobs?limit=50`
 *    walked with its cursor (ours: the whole HTTP answer, API key and schema included), against the same two SELECTs
 *    (the page's ids, then its rows) on the bare driver (mysql2) at the same positions, in the same run: p50 and p99 a page, the first and the last
 *    tenth of the walk apart (keyset pages cost the same however deep), and the same with `status=failed`.
 * Prints both, and ours/peer. Never fails on a figure.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import mysql from 'mysql2/promise';
import { chromium, type BrowserContext, type Page } from 'playwright';
import { CHROMIUM_ARGS } from '../src/browser/browser-pool.js';
import { listenOnLoopback } from '../test/fixtures/loopback.js';
import { baseTestDatabaseUrl } from '../test/support/databases.js';
import { parseMysqlUrl } from '../src/store/mysql-url.js';
import globalSetup from '../test/web/support/global-setup.js';
import { callWithKey, control, serviceInfo } from '../test/web/support/control.js';
import { formatRouteSizes, routeSizes } from '../web/build/route-sizes.js';
import { intFromEnv } from './support/config.js';
import { fmt, percentile, table } from './support/stats.js';

const ROUNDS = intFromEnv('BENCH_ROUNDS', 10);
const JOBS = intFromEnv('BENCH_JOBS', 50);
const EVENTS = intFromEnv('BENCH_EVENTS', 2000);
const SCREENSHOTS = intFromEnv('BENCH_SCREENSHOTS', 200);
const LIST_JOBS = intFromEnv('BENCH_LIST_JOBS', 100_000);
const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'dist', 'web');

const watchdog = setTimeout(() => {
  console.error('bench: still running after 15 min, giving up');
  process.exit(1);
}, 15 * 60_000);
watchdog.unref();

if (!existsSync(join(OUT, '.vite', 'manifest.json'))) throw new Error('dist/web is not built: run `npm run build` first');
console.log(`first load of each screen, compressed JavaScript (budget: jobs screen 200 KB):\n${formatRouteSizes(routeSizes(OUT))}\n`);

/**
 * Milliseconds from the navigation's start (the document's time origin) until the expression `shown` is true in the page,
 * checked on every animation frame and read in the page (Playwright's own polling would add up to its interval), in
 * a fresh context each time; the first round only warms the server's and the OS's caches.
 */
async function firstRender(url: string, shown: string, context: () => Promise<BrowserContext>): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    const fresh = await context();
    const page: Page = await fresh.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    const at = await page.waitForFunction(`(${shown}) ? performance.now() : false`, undefined, { polling: 'raf', timeout: 30_000 });
    if (round > 0) times.push((await at.jsonValue()) as number);
    await fresh.close();
  }
  return times;
}

// ---- the peer: Playwright's HTML report of a suite of the same size ----
function buildHtmlReport(): string {
  // Inside the project (test-results/ is ignored by git), so that the suite's imports find @playwright/test.
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'test-results', 'bench-web-report-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'playwright.config.mjs'), `export default { testDir: './tests', outputDir: './out', reporter: [['html', { open: 'never', outputFolder: './report' }]], workers: 1 };\n`);
  const many = Array.from({ length: JOBS - 1 }, (_, i) => `test('suite test number ${i + 1}', () => {});`).join('\n');
  writeFileSync(join(dir, 'tests', 'many.spec.mjs'), `import { test } from '@playwright/test';\n${many}\n`);
  writeFileSync(
    join(dir, 'tests', 'long.spec.mjs'),
    `import { test } from '@playwright/test';\ntest('the long test', async () => {\n  for (let i = 0; i < ${EVENTS}; i++) await test.step('step number ' + i, async () => {});\n});\n`,
  );
  execFileSync(join(ROOT, 'node_modules', '.bin', 'playwright'), ['test', '-c', join(dir, 'playwright.config.mjs')], { cwd: dir, stdio: 'ignore' });
  return join(dir, 'report');
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.zip': 'application/zip' };
async function serveStatic(dir: string) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return listenOnLoopback(server);
}

// ---- ours ----
const teardown = await globalSetup();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
let reportDir: string | undefined;
try {
  const info = serviceInfo();
  const acme = info.organizations.acme;
  const source = await callWithKey(acme.key, 'POST', '/api/jobs', { projectId: acme.repositoryId, baseUrl: `${info.demoUrl}/pricing`, trigger: 'cli', naturalLanguageTask: 'Check that the pricing page lists three plans' });
  const sourceJobId = String(source.body.jobId);
  for (let waited = 0; ; waited += 250) {
    const view = await callWithKey(acme.key, 'GET', `/api/jobs/${sourceJobId}`);
    const status = (view.body.job as { status: string }).status;
    if (status === 'passed') break;
    if (waited > 60_000 || ['failed', 'errored', 'cancelled'].includes(status)) throw new Error(`the source run ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (let i = 1; i < JOBS; i++) await control('large-job', { sourceJobId, events: 12, screenshots: 0 });
  const { jobId: largeJobId } = await control<{ jobId: string }>('large-job', { sourceJobId, events: EVENTS, screenshots: SCREENSHOTS });

  await control('directory', { userId: 'bench_reader', organizations: [{ slug: 'acme', role: 'member' }] });
  await control('sign-in-as', { sub: 'bench_reader' });
  const signedIn = await browser.newContext();
  const login = await signedIn.newPage();
  await login.goto(`${info.base}/auth/login?returnTo=/jobs`);
  await login.waitForURL(`${info.base}/jobs`);
  const storageState = await signedIn.storageState();
  await signedIn.close();
  // bypassCSP: Playwright's frame-by-frame predicate is evaluated as a string, which the dashboard's CSP forbids.
  const ourContext = () => browser.newContext({ storageState, viewport: { width: 1280, height: 800 }, bypassCSP: true });

  const jobsOurs = await firstRender(`${info.base}/jobs`, `document.querySelector('a[href="/jobs/${sourceJobId}"]') !== null`, ourContext);
  const jobOurs = await firstRender(`${info.base}/jobs/${largeJobId}`, `document.body.innerText.includes('Steps (')`, ourContext);

  // ---- the peer ----
  reportDir = buildHtmlReport();
  const report = await serveStatic(reportDir);
  const plain = () => browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const indexPeer = await firstRender(`${report.url}/index.html`, `document.body.innerText.includes('suite test number ${JOBS - 1}')`, plain);
  const probe = await plain();
  const probePage = await probe.newPage();
  await probePage.goto(`${report.url}/index.html`);
  await probePage.getByText('the long test').click();
  const longUrl = probePage.url();
  await probe.close();
  const longPeer = await firstRender(longUrl, `document.body.innerText.includes('step number 0')`, plain);
  await report.close();


  // ---- the list at LIST_JOBS jobs: ours (HTTP) against the bare driver, at the same positions ----
  await control('many-jobs', { slug: 'globex', count: LIST_JOBS });
  const globex = info.organizations.globex;
  const databaseUrl = new URL(baseTestDatabaseUrl());
  databaseUrl.pathname = `${databaseUrl.pathname.replace(/\/$/, '') || '/qa_test'}_web`;
  const { host, port, user, password, database } = parseMysqlUrl(databaseUrl.href);
  const bare = await mysql.createConnection({ host, port, user, password, database });
  const COLUMNS = 'id, status, `trigger`, repository_id, check_id, parent_job_id, task, started_by, created_at, started_at, finished_at, updated_at';
  async function walk(filter: string): Promise<{ ours: number[]; peer: number[] }> {
    const ours: number[] = [];
    const peer: number[] = [];
    let cursor: string | null = null;
    let position: { createdAt: Date; id: string } | null = null;
    do {
      let started = performance.now();
      const page = await callWithKey(globex.key, 'GET', `/api/jobs?limit=50${filter ? `&${filter}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      ours.push(performance.now() - started);
      if (page.status !== 200) throw new Error(`GET /api/jobs answered ${page.status}`);
      const where = [`organization_id = ?`, ...(filter ? ['status = ?'] : []), ...(position ? ['created_at <= ? AND (created_at < ? OR id < ?)'] : [])].join(' AND ');
      const params: unknown[] = [globex.organizationId, ...(filter ? [filter.split('=')[1]] : []), ...(position ? [position.createdAt, position.createdAt, position.id] : [])];
      // The same two reads the service makes (src/jobs/list-jobs.ts): the page's ids from the index, then its rows.
      started = performance.now();
      const [idRows] = await bare.query(`SELECT id FROM jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT 51`, params);
      const ids = (idRows as Array<{ id: string }>).map(({ id }) => id);
      if (ids.length > 0) await bare.query(`SELECT ${COLUMNS} FROM jobs WHERE id IN (?)`, [ids]);
      peer.push(performance.now() - started);
      const jobs = page.body.jobs as Array<{ jobId: string; createdAt: string }>;
      const last = jobs.at(-1);
      position = last ? { createdAt: new Date(last.createdAt), id: last.jobId } : null;
      cursor = page.body.nextCursor as string | null;
    } while (cursor !== null);
    return { ours, peer };
  }
  const listRows: string[][] = [];
  for (const [name, filter] of [['all', ''], ['status=failed', 'status=failed']] as const) {
    const { ours, peer } = await walk(filter);
    const tenth = Math.max(1, Math.floor(ours.length / 10));
    const part = (values: number[], from: number, to: number) => values.slice(from, to);
    for (const [label, from, to] of [[`${name}: all ${ours.length} pages`, 0, ours.length], [`${name}: first tenth`, 0, tenth], [`${name}: last tenth`, ours.length - tenth, ours.length]] as const) {
      const [o, p] = [part(ours, from, to), part(peer, from, to)];
      listRows.push([label, fmt(percentile(o, 50), 2), fmt(percentile(o, 99), 2), fmt(percentile(p, 50), 2), fmt(percentile(p, 99), 2), fmt(percentile(o, 50) / percentile(p, 50), 1)]);
    }
  }
  await bare.end();
  const row = (name: string, ours: number[], peer: number[]) => {
    const [o, p] = [percentile(ours, 50), percentile(peer, 50)];
    return [name, fmt(o), fmt(p), fmt(o / p, 2)];
  };
  console.log(`time to first render, median of ${ROUNDS} cold loads (ms):`);
  console.log(
    table(
      ['screen', 'ours', 'Playwright HTML report', 'ours / report'],
      [row(`jobs screen, ${JOBS} jobs`, jobsOurs, indexPeer), row(`job page, ${EVENTS} events, ${SCREENSHOTS} screenshots`, jobOurs, longPeer)],
      [false, true, true, true],
    ),
  );
  console.log(`\nthe jobs list at ${LIST_JOBS} jobs, a page of 50 walked with its cursor (ms):`);
  console.log(table(['walk', 'GET /api/jobs p50', 'p99', 'bare SELECTs p50', 'p99', 'ours / bare'], listRows, [false, true, true, true, true, true]));
} finally {
  await browser.close();
  await teardown();
  if (reportDir) rmSync(join(reportDir, '..'), { recursive: true, force: true });
}
