/**
 * The whole onboarding of the fixture repositories, per step (issue 28's benchmark, its last part); `npm run
 * bench:onboarding` runs it after the index bench (bench/onboarding.bench.ts).
 *
 * As test/integration/onboarding/whole-onboarding.test.ts does it: each fixture repository (test/fixtures/repos/) is
 * served over HTTPS by the tests' local git server (a test CA), connected with `POST /api/repositories` on the real
 * API, and onboarded by a worker composed as `qa worker` composes it (git, the indexer, the crawl in Chromium,
 * discovery, coverage, the builds as child jobs), one repository after the other.
 * - express-shop: the whole onboarding, with the shop itself running as `baseUrl`.
 * - next-shop and react-router-spa: fetch and index only. They cannot run here (no Next.js or Vite build), so the
 *   organization's live execution is paused before they are connected: the ingestion stops, waiting, before discover.
 *
 * Per step, its wall time from the ingestion's own history (ingestion_events: `step.started` to `step.finished` of
 * fetch, index, discover (crawl = to `crawl.finished`, join = the rest), coverage, build (until its children are
 * over)), and the total from `ingestion.started` to `ingestion.succeeded` and from the POST to the end as a client
 * sees it. Never fails on a figure; prints the load average, since on a busy machine the figures mean little.
 * The worker is the tests' (test/support/qa-worker.ts): it looks at running builds every 200 ms (ONBOARDING_POLL_MS
 * defaults to 5 s) and builds at most 4 flows, 2 at a time (CATALOG_MAX_BUILDS defaults to 10).
 *
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/qa_onbench, dropped and created again).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createApiKey } from '../src/identity/api-keys.js';
import { IngestionEvent } from '../src/store/entities/ingestion-event.entity.js';
import { setCapabilityPaused } from '../src/store/execution-flags.js';
import { openStore } from '../src/store/open-store.js';
import { connectInstallation } from '../src/store/repository-admission.js';
import { startFakeGitHost } from '../test/fakes/git-https-server.js';
import { createTestRepository, type FileContent } from '../test/fixtures/git-repositories.js';
// The fixture is plain JavaScript, run as the web app the whole onboarding browses.
// @ts-expect-error -- no types for the fixture's JavaScript
import { startExpressShop } from '../test/fixtures/repos/express-shop/server.js';
import { createTestCertificates } from '../test/fixtures/tls/test-certificates.js';
import { callApi, startTestApi } from '../test/support/api-server.js';
import { silentLogger } from '../test/support/logger.js';
import { startTestWorker } from '../test/support/qa-worker.js';
import { freshBenchDatabase } from './support/database.js';
import { fmt, table } from './support/stats.js';

const url = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/qa_onbench';
const FIXTURES = 'test/fixtures/repos';
/** How long one ingestion may take before the bench gives up on it (and says so). */
const GIVE_UP_MS = 300_000;

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON read field by field

interface Shop {
  url: string;
  close(): Promise<void>;
}

async function filesOf(dir: string): Promise<Record<string, FileContent>> {
  const files: Record<string, FileContent> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = await readFile(path, 'utf8');
  }
  return files;
}

/** Milliseconds between the first event of `from` and the first of `to` after it (`step` narrows step events). */
function between(events: IngestionEvent[], from: [string, string?], to: [string, string?]): number | undefined {
  const find = ([type, step]: [string, string?], after = -1) =>
    events.find((event) => event.seq > after && event.type === type && (step === undefined || (event.data as { step?: string }).step === step));
  const start = find(from);
  const end = start && find(to, start.seq);
  return start && end ? end.at.getTime() - start.at.getTime() : undefined;
}

const ms = (value: number | undefined): string => (value === undefined ? '-' : fmt(value, 0));

async function main(): Promise<void> {
  console.log(`\nwhole onboarding of the fixture repositories, per step (database ${url})`);
  console.log(`machine: ${availableParallelism()} CPUs, load average ${loadavg().map((l) => fmt(l, 2)).join(' ')}`);
  const scratch = await mkdtemp(join(tmpdir(), 'qa-bench-whole-onboarding-'));
  const certificates = await createTestCertificates();
  const caFile = join(scratch, 'test-ca.pem');
  await writeFile(caFile, certificates.ca);
  const names = ['express-shop', 'next-shop', 'react-router-spa'];
  for (const name of names) await createTestRepository(join(scratch, 'repos'), `acme/${name}.git`, [await filesOf(join(FIXTURES, name))]);
  const gitHost = await startFakeGitHost({ key: certificates.key, cert: certificates.cert, projectRoot: join(scratch, 'repos') });
  const shop = (await startExpressShop({ port: 0 })) as Shop;

  await freshBenchDatabase(url);
  const dataSource = await openStore({ database: { kind: 'mysql', url } }, silentLogger());
  const worker = await startTestWorker(dataSource, {
    onboardingFetch: { extraCaFile: caFile },
    catalog: { maxBuilds: 4, maxConcurrency: 2 },
    // The shop's demo account, as a team configures it (README of the fixture): sign-in flows need it.
    secrets: { SHOP_EMAIL: 'shopper@example.com', SHOP_PASSWORD: 'correct-horse' },
  });
  const api = await startTestApi(dataSource, { artifacts: worker.artifacts });
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    for (const [at, name] of names.entries()) {
      const whole = name === 'express-shop';
      // An organization each: pausing one's live execution leaves the others' ingestions alone.
      const { key, organization } = await createApiKey(dataSource, `acme-${name}`);
      await connectInstallation(dataSource, 'codehost', String(42 + at), `acme-${name}`);
      const posted = performance.now();
      const connected = await callApi(api.base, 'POST', '/api/repositories', {
        provider: 'codehost', providerInstallationId: String(42 + at), owner: 'acme', name, defaultBranch: 'main',
        cloneUrl: `${gitHost.url}/acme/${name}.git`, baseUrl: whole ? shop.url : 'http://127.0.0.1:9',
        ...(whole ? { testValueSecretRefs: { email: 'SHOP_EMAIL', password: 'SHOP_PASSWORD' } } : {}),
      }, key);
      if (connected.status !== 202) {
        notes.push(`${name}: POST /api/repositories answered ${connected.status}: ${connected.text}`);
        continue;
      }
      const { ingestionRunId } = connected.body as Answer;
      // No running app for the others: live execution is paused as soon as they are connected (a connection asks
      // for it), so their ingestion waits before discover, which needs it; fetch and index (about a second) do not.
      if (!whole) await setCapabilityPaused(dataSource, 'live', true, organization.id);
      const events = dataSource.getRepository(IngestionEvent);
      const discoverStarted = (event: IngestionEvent) => event.type === 'step.started' && (event.data as { step?: string }).step === 'discover';
      const over = whole
        ? (event: IngestionEvent) => event.type === 'ingestion.succeeded' || event.type === 'ingestion.failed'
        : (event: IngestionEvent) => event.type === 'ingestion.waiting' || event.type === 'ingestion.failed' || event.type === 'attempt.failed' || discoverStarted(event);
      let history: IngestionEvent[] = [];
      let clientMs: number | undefined;
      // Polls the history (the figures come from its timestamps, not from when the poll saw them).
      for (const deadline = Date.now() + GIVE_UP_MS; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
        history = await events.find({ where: { ingestionRunId }, order: { seq: 'ASC' } });
        if (history.some(over)) {
          clientMs = performance.now() - posted;
          break;
        }
      }
      const ingestion = (await callApi(api.base, 'GET', `/api/ingestions/${ingestionRunId}`, undefined, key)).body as Answer;
      const counts = (ingestion.counts ?? {}) as Answer;
      const step = (stepName: string) => between(history, ['step.started', stepName], ['step.finished', stepName]);
      const fetchMs = step('fetch');
      const indexMs = step('index');
      const fetchIndex = between(history, ['step.started', 'fetch'], ['step.finished', 'index']);
      const retried = history.filter((event) => event.type === 'step.resumed' || event.type === 'step.repeated' || event.type === 'attempt.failed').length;
      rows.push([name, 'fetch+index', ms(fetchIndex), `fetch ${ms(fetchMs)} ms (${counts.files ?? '?'} files), index ${ms(indexMs)} ms (${counts.routes ?? '?'} routes)`]);
      if (whole) {
        const crawl = between(history, ['step.started', 'discover'], ['crawl.finished']);
        const join = between(history, ['crawl.finished'], ['step.finished', 'discover']);
        rows.push([name, 'discover', ms(step('discover')), `crawl ${ms(crawl)} ms (${counts.pages ?? '?'} pages), join ${ms(join)} ms (${counts.flows ?? '?'} flows, ${counts.edgeCases ?? '?'} edge cases)`]);
        const linked = history.find((event) => event.type === 'step.finished' && (event.data as { step?: string }).step === 'coverage')?.data as Answer | undefined;
        rows.push([name, 'coverage', ms(step('coverage')), linked ? `${linked.links} links, ${linked.coveredFlows} of ${linked.flows} flows covered (${linked.checks} checks before the builds)` : '']);
        rows.push([name, 'build', ms(step('build')), `${counts.builds ?? '?'} children (2 at a time), ${counts.buildsPassed ?? '?'} passed; then ${counts.coveredFlows ?? '?'} flows covered`]);
        rows.push([name, 'total', ms(between(history, ['ingestion.started'], ['ingestion.succeeded'])), `ingestion.started to ingestion.succeeded; POST to seen over ${ms(clientMs)} ms`]);
      } else {
        rows.push([name, 'total', ms(between(history, ['ingestion.started'], ['step.finished', 'index'])), 'fetch and index only (no running app: discover, coverage, build not run)']);
      }
      if (!whole && history.some(discoverStarted)) {
        notes.push(`${name}: discover started before live execution was paused; its fetch and index figures stand`);
      } else if (ingestion.status !== (whole ? 'succeeded' : 'waiting')) notes.push(`${name}: ingestion ended ${ingestion.status}${ingestion.error ? ` (${JSON.stringify(ingestion.error)})` : ''}${clientMs === undefined ? ', gave up waiting' : ''}`);
      if (retried > 0) notes.push(`${name}: ${retried} retried or resumed step(s) in its history; its figures include them`);
    }
  } finally {
    await api.close();
    await worker.stop();
    await dataSource.destroy();
    await shop.close();
    await gitHost.close();
    await certificates.remove();
    await rm(scratch, { recursive: true, force: true });
  }
  console.log(table(['repository', 'step', 'wall ms', 'detail'], rows, [false, false, true, false]));
  for (const note of notes) console.log(`NOTE: ${note}`);
  console.log(`load average after: ${loadavg().map((l) => fmt(l, 2)).join(' ')}`);
}

await main();
