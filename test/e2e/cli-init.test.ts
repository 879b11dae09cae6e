import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoApp, type DemoApp } from '../fixtures/demo-app/index.js';
import { testMysqlUrl } from '../support/databases.js';
import { freePort, qa, spawnQa, until, type QaProcess, type QaRun } from '../support/qa-cli.js';

/** Runs a command line as the person would paste it, in the checkout (where `npx qa` is this project's CLI). */
function shell(line: string, env: Record<string, string>): Promise<QaRun> {
  const child = spawn('bash', ['-c', line], { env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: QaRun = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ ...run, code }));
  });
}

/** A new user's first job, as the README gives it: `qa init`, then the one command it prints. */
describe('qa init (end to end)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-e2e-init-'));
  const service = { SQLITE_PATH: join(folder, 'data', 'qa.sqlite'), ARTIFACTS_DIR: join(folder, 'artifacts'), LOG_LEVEL: 'silent' };
  let app: DemoApp;
  let started: QaProcess | undefined;

  beforeAll(async () => {
    app = await startDemoApp();
  });

  afterAll(async () => {
    if (started && started.child.exitCode === null) {
      started.child.kill('SIGTERM');
      await started.exited;
    }
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sets up an organization, key, installation and repository, keeps the key private, and finds them again', async () => {
    const first = await qa(['init', '--base-url', app.url], service);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const lines = first.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Organization "local", installation "local" and repository "127-0-0-1-\d+" \([0-9a-f-]{36}\) created for http:\/\/127\.0\.0\.1:\d+\/\.$/);
    const key = lines[2]!;
    expect(key).toMatch(/^qa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(folder, 'data', 'init-api-key')).mode & 0o777).toBe(0o600);

    const again = await qa(['init', '--base-url', app.url], service);
    expect(again.code).toBe(0);
    const againLines = again.stdout.trim().split('\n');
    expect(againLines[0]).toBe(lines[0]!.replace(' created for ', ' found for '));
    expect(againLines.slice(1)).toEqual(lines.slice(1));
  });

  it("refuses a MySQL deployment unless asked, and a base URL that is not http(s), before touching anything", async () => {
    const onMysql = await qa(['init', '--base-url', app.url], { ...service, DATABASE_URL: testMysqlUrl('_init_refused') });
    expect(onMysql.code).toBe(2);
    expect(onMysql.stderr).toContain('--on-mysql');
    for (const hostile of ['javascript:alert(1)', 'http://user:pass@127.0.0.1/', 'not a url']) {
      const bad = await qa(['init', '--base-url', hostile], service);
      expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--base-url must be an http(s) URL')]);
    }
  });

  it('prints the exact next command, and that command runs a first check that passes', async () => {
    const init = await qa(['init', '--base-url', app.url], service);
    const next = init.stdout.trim().split('\n').at(-1)!;
    expect(next).toMatch(/^QA_API_KEY=qa_\S+ npx qa jobs create --project [0-9a-f-]{36} --base-url \S+ --task '.+' --follow$/);

    const port = await freePort();
    started = spawnQa(['start'], { ...service, LOG_LEVEL: 'info', PORT: String(port), SHUTDOWN_GRACE_MS: '2000' });
    const ready = () => started!.run.stdout.includes('running; stop with SIGTERM or SIGINT');
    await until(() => ready() || started!.child.exitCode !== null, 'qa start to run', 60_000);
    expect(started.child.exitCode).toBeNull();

    const run = await shell(next, { QA_API_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'silent' });
    expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
    expect(run.stdout).toContain('passed');
  });
});
