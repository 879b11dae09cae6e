import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, qa, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

/** A pricing page whose plans list can lose an item (a bug a check must catch) and whose answers can stall. */
interface PricingSite {
  url: string;
  set(mode: { plans?: string[]; stall?: boolean }): void;
  close(): Promise<void>;
}

async function startPricingSite(): Promise<PricingSite> {
  let plans = ['Basic', 'Pro', 'Team'];
  let stall = false;
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    if (stall) {
      held.push(res);
      return;
    }
    const items = plans.map((plan) => `<li>${plan}</li>`).join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Pricing</title></head><body><main><h1>Pricing</h1><ul aria-label="Plans">${items}</ul></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(mode) {
      plans = mode.plans ?? plans;
      stall = mode.stall ?? stall;
      if (!stall) for (const res of held.splice(0)) res.destroy();
    },
    close: () => {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `qa replay` as a CI job runs it, against a real `qa start` whose checks were compiled by passing runs. */
describe('qa replay (end to end)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-e2e-replay-'));
  const service = { SQLITE_PATH: join(folder, 'data', 'qa.sqlite'), ARTIFACTS_DIR: join(folder, 'artifacts'), LOG_LEVEL: 'silent' };
  let site: PricingSite;
  let started: QaProcess;
  let client: Record<string, string>;
  let repositoryId: string;

  beforeAll(async () => {
    site = await startPricingSite();
    const init = await qa(['init', '--base-url', site.url], service);
    expect(init.code).toBe(0);
    const [, , key] = init.stdout.trim().split('\n');
    repositoryId = /\(([0-9a-f-]{36})\)/.exec(init.stdout)![1]!;
    const port = await freePort();
    started = spawnQa(['start'], { ...service, LOG_LEVEL: 'info', PORT: String(port), SHUTDOWN_GRACE_MS: '2000' });
    const ready = () => started.run.stdout.includes('running; stop with SIGTERM or SIGINT');
    await until(() => ready() || started.child.exitCode !== null, 'qa start to run', 60_000);
    client = { QA_API_URL: `http://127.0.0.1:${port}`, QA_API_KEY: key!, LOG_LEVEL: 'silent' };
    for (const task of ['Check that the page shows "Pricing"', 'Check that the Plans list shows Basic, Pro and Team']) {
      const run = await qa(['jobs', 'create', '--project', repositoryId, '--base-url', site.url, '--task', task, '--follow'], client);
      expect([task, run.code, run.code === 0 ? '' : run.stdout.slice(-1500) + run.stderr]).toEqual([task, 0, '']);
    }
  });

  afterAll(async () => {
    if (started.child.exitCode === null) {
      started.child.kill('SIGTERM');
      await started.exited;
    }
    await site.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('replays every active check, prints a line each, and writes JUnit and a Markdown summary: exit 0 when all pass', async () => {
    const junit = join(folder, 'pass.xml');
    const summary = join(folder, 'summary.md');
    const run = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--parallel', '2', '--junit', junit, '--summary', summary], client);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('Replaying 2 check(s)');
    expect(run.stdout.match(/^✓ passed {2}\d+\.\d s {2}Check that/gm)).toHaveLength(2);
    expect(run.stdout).toContain('2 passed, 0 failed, 0 did not finish (2 checks)');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="qa replay" tests="2" failures="0" errors="0" skipped="0" time="\d+\.\d{3}">/);
    expect(xml.match(/<testcase name="Check that[^"]*" classname="[^"]+" time="\d+\.\d{3}">/g)).toHaveLength(2);
    expect(xml).not.toContain('<failure');
    expect(readFileSync(summary, 'utf8')).toContain('### QA replay: 2 of 2 passed');
  });

  it('catches the bug: the failing check is a JUnit failure with expected and actual and links, and the exit code is 1', async () => {
    site.set({ plans: ['Basic', 'Team'] });
    try {
      const junit = join(folder, 'fail.xml');
      const run = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--junit', junit], client);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('1 of 2 replays did not pass');
      expect(run.stdout).toMatch(/^✗ failed .*Check that the Plans list shows Basic, Pro and Team/m);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('tests="2" failures="1" errors="0"');
      const failure = /<failure message="([^"]*)" type="([^"]*)">([^<]*)<\/failure>/.exec(xml);
      expect(failure).not.toBeNull();
      expect(failure![3]).toMatch(/expected: .*Pro/);
      expect(failure![3]).toMatch(/actual: /);
      expect(failure![3]).toMatch(new RegExp(`job: ${client.QA_API_URL}/jobs/[0-9a-f-]{36}`));
      expect(failure![3]).toMatch(new RegExp(`trace: ${client.QA_API_URL}/api/jobs/[0-9a-f-]{36}/artifacts/`));
    } finally {
      site.set({ plans: ['Basic', 'Pro', 'Team'] });
    }
  });

  it('stops at --timeout, cancels what still runs, reports it as an error, and exits 3', async () => {
    site.set({ stall: true });
    try {
      const junit = join(folder, 'timeout.xml');
      const run = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--parallel', '1', '--timeout', '3s', '--junit', junit], client);
      expect(run.code).toBe(3);
      expect(run.stdout).toMatch(/^⏱ timed out/m);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('tests="2" failures="0" errors="2"');
      const jobId = /jobs\/([0-9a-f-]{36})/.exec(run.stdout)![1]!;
      const job = await qa(['jobs', 'get', jobId], client);
      expect(JSON.parse(job.stdout).job.status).toBe('cancelled');
    } finally {
      site.set({ stall: false });
    }
  });

  it('with the changed files, replays what coverage selects: every check while the repository has no coverage, saying so', async () => {
    const changed = join(folder, 'changed-files.txt');
    writeFileSync(changed, 'src/pricing.tsx\nREADME.md\n');
    const run = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--changed-files', changed], client);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('2 changed file(s): every check ran: the repository has no coverage links yet; 0 check(s) skipped');
    expect(run.stdout).toContain('Replaying 2 check(s)');
  });

  it('refuses bad usage with exit 2 before creating anything', async () => {
    writeFileSync(join(folder, 'changed.txt'), 'src/pricing.tsx\n');
    const both = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--changed-files', join(folder, 'changed.txt'), '--since', 'main'], client);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('at most one of --changed-files and --since')]);
    const badTimeout = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--timeout', 'soon'], client);
    expect(badTimeout.code).toBe(2);
    const otherCheck = await qa(['replay', '--repository', repositoryId, '--base-url', site.url, '--check', '00000000-0000-4000-8000-000000000000'], client);
    expect([otherCheck.code, otherCheck.stderr]).toEqual([2, expect.stringContaining('404')]);
  });
});
