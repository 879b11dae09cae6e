import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoApp } from '../fixtures/demo-app/index.js';
import { shopRepositoryBody } from '../support/check-fixtures.js';
import { freePort, qa, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON is read field by field
const json = (stdout: string): Record<string, any> => JSON.parse(stdout) as Record<string, any>;

/**
 * A new user's first session, all through the real `qa` binary: `qa start` on the embedded SQLite store, the
 * administrator verbs against its database, then the client verbs against its HTTP API.
 */
describe('qa against a running `qa start` (end to end)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-e2e-client-'));
  const service = { SQLITE_PATH: join(folder, 'qa.sqlite'), ARTIFACTS_DIR: join(folder, 'artifacts'), LOG_LEVEL: 'info' };
  let started: QaProcess;
  let client: Record<string, string>;

  beforeAll(async () => {
    const port = await freePort();
    started = spawnQa(['start'], { ...service, PORT: String(port), SHUTDOWN_GRACE_MS: '2000' });
    const ready = () => started.run.stdout.includes('running; stop with SIGTERM or SIGINT');
    await until(() => ready() || started.child.exitCode !== null, 'qa start to run');
    if (!ready()) throw new Error(`qa start exited before running: ${(await started.exited).stderr}`);
    // The client verbs get no database setting that works: they must not need one.
    client = { QA_API_URL: `http://127.0.0.1:${port}`, SQLITE_PATH: join(folder, 'client', 'qa.sqlite'), LOG_LEVEL: 'silent' };
  });

  afterAll(async () => {
    if (started.child.exitCode === null) {
      started.child.kill('SIGTERM');
      await started.exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('keys → installation → repository → a task that needs review → answer → the linked job', async () => {
    const keyRun = await qa(['keys', 'create', '--org', 'acme'], { ...service, LOG_LEVEL: 'silent' });
    expect(keyRun.code).toBe(0);
    const env = { ...client, QA_API_KEY: keyRun.stdout.trim().split('\n').at(-1)! };
    expect((await qa(['installations', 'connect', '--installation', '42', '--org', 'acme'], { ...service, LOG_LEVEL: 'silent' })).code).toBe(0);

    const file = join(folder, 'repo.json');
    writeFileSync(
      file,
      JSON.stringify(shopRepositoryBody({ networkAllowlist: ['cdn.shop.example'] })),
    );
    const connected = await qa(['repos', 'connect', '--file', file], env);
    expect([connected.code, connected.stderr]).toEqual([0, '']);
    const { repositoryId } = json(connected.stdout);

    const created = await qa(
      ['jobs', 'create', '--project', repositoryId, '--task', 'Delete the demo account', '--base-url', 'https://shop.example', '--allow', 'cdn.shop.example'],
      env,
    );
    expect(created.code).toBe(0);
    const review = json(created.stdout);
    expect(review).toMatchObject({ status: 'review_required', resolution: { kind: 'needs_clarification' } });
    const questions = review.resolution.questions as string[];
    expect(questions).toHaveLength(1);
    expect(created.stderr).toContain(`1. ${questions[0]}`);
    expect(created.stderr).toContain(`qa answer ${review.jobId} --answer "<answer 1>"`);

    const answer = 'Yes: delete the demo account, it is disposable test data';
    const answered = await qa(['answer', review.jobId, '--answer', answer], env);
    expect([answered.code, answered.stderr]).toEqual([0, '']);
    const child = json(answered.stdout);
    expect(child).toMatchObject({ parentJobId: review.jobId, workflowIdentity: expect.any(String), testId: expect.any(String) });

    const parent = await qa(['jobs', 'get', review.jobId], env);
    expect(parent.code).toBe(0);
    expect(json(parent.stdout).job).toMatchObject({ status: 'review_required', childJobIds: [child.jobId], projectId: repositoryId });
    const linked = await qa(['jobs', 'get', child.jobId], env);
    expect(json(linked.stdout).job).toMatchObject({ parentJobId: review.jobId, testId: child.testId, networkAllowlist: ['cdn.shop.example'] });
    expect(json(linked.stdout).job.naturalLanguageTask).toContain(answer);

    expect(existsSync(join(folder, 'client'))).toBe(false);
  });

  it('runs a job in the browser: --follow prints its history and exits 0 when it passed, 1 when it failed', async () => {
    const demo = await startDemoApp();
    try {
      const keyRun = await qa(['keys', 'create', '--org', 'acme'], { ...service, LOG_LEVEL: 'silent' });
      const env = { ...client, QA_API_KEY: keyRun.stdout.trim().split('\n').at(-1)! };
      const file = join(folder, 'demo-repo.json');
      writeFileSync(file, JSON.stringify({
        provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'demo', defaultBranch: 'main',
        cloneUrl: 'https://code.example/acme/demo.git', baseUrl: demo.url, networkAllowlist: [],
      }));
      const { repositoryId } = json((await qa(['repos', 'connect', '--file', file], env)).stdout);
      const task = 'Check that the pricing page lists three plans';

      const passed = await qa(['jobs', 'create', '--project', repositoryId, '--task', task, '--base-url', demo.url, '--follow'], env);
      expect(passed.code).toBe(0);
      expect(passed.stderr).toMatch(/^Job [0-9a-f-]{36} passed\n$/);
      const lines = passed.stdout.trim().split('\n');
      // The 202 body (pretty JSON), then one plain line per event, ending with the verdict.
      expect(lines.filter((line) => /^\d+ \S+ [a-z_.]+ /.test(line)).map((line) => line.split(' ')[2])).toEqual([
        'job.created', 'job.queued', 'job.started',
        'step.started', 'artifact.created', 'step.passed',
        'step.started', 'artifact.created', 'step.passed',
        'artifact.created', 'check.compiled', 'job.passed',
      ]);

      const failed = await qa(['jobs', 'create', '--project', repositoryId, '--task', 'Open the console error page', '--base-url', demo.url, '--follow'], env);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/ finding\.recorded .*"kind":"page_error"/);
      expect(failed.stdout).toMatch(/ job\.failed /);
    } finally {
      await demo.close();
    }
  });

  it('the service stops cleanly afterwards', async () => {
    started.child.kill('SIGTERM');
    expect((await started.exited).code).toBe(0);
  });
});
