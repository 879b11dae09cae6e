import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobEventType } from '../../src/core/job-lifecycle.js';
import { appendJobEvent } from '../../src/jobs/job-events.js';
import { createApiKey } from '../../src/identity/api-keys.js';
import { Job } from '../../src/store/entities/job.entity.js';
import { connectInstallation } from '../../src/store/repository-admission.js';
import { insertRepository } from '../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../support/api-server.js';
import { useTestStore } from '../support/dialects.js';
import { freePort, qa, spawnQa, until, type QaProcess } from '../support/qa-cli.js';

const RUNNABLE = 'Check that the pricing page lists three plans';
const SIDE_EFFECT = 'Buy the cheapest item with the saved card';
const BASE_URL = 'https://shop.example';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON is read field by field
const json = (stdout: string): Record<string, any> => JSON.parse(stdout) as Record<string, any>;
const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

/**
 * A loopback proxy in front of the API that cuts the first event stream it passes on after one whole line and half
 * of the next (a dropped connection mid-stream), and passes everything else through. `urls` lists what it saw.
 */
async function startDroppingProxy(target: string): Promise<{ base: string; urls: string[]; close(): Promise<void> }> {
  const urls: string[] = [];
  let dropped = false;
  const server: Server = createServer((req, res) => {
    urls.push(req.url!);
    const upstream = request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      if (dropped || !req.url!.includes('/events')) {
        answer.pipe(res);
        return;
      }
      dropped = true;
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString();
        const end = text.indexOf('\n');
        if (end === -1) return;
        answer.off('data', onData);
        res.write(`${text.slice(0, end + 1)}{"index":1,"ty`);
        setTimeout(() => {
          res.socket?.destroy();
          answer.destroy();
        }, 100);
      };
      answer.on('data', onData);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    urls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * On MySQL only: the client verbs talk to the API over HTTP and never see the store's dialect; the routes they call
 * are tested on both dialects in test/integration/api/, and the client against `qa start` on SQLite in
 * test/e2e/cli-client.test.ts.
 */
describe('qa client verbs against the real API', () => {
  const store = useTestStore('mysql');
  // The client verbs must never open the database: its would-be folder must still not exist at the end.
  const untouched = join(mkdtempSync(join(tmpdir(), 'qa-test-client-')), 'never-created');
  let api: TestApi;
  let key: string;
  let repositoryId: string;
  const followers: QaProcess[] = [];

  beforeAll(async () => {
    api = await startTestApi(store());
  });

  afterAll(async () => {
    for (const follower of followers) follower.child.kill('SIGKILL');
    await api.close();
    rmSync(join(untouched, '..'), { recursive: true, force: true });
  });

  beforeEach(async () => {
    const issued = await createApiKey(store(), 'acme');
    key = issued.key;
    repositoryId = await insertRepository(store(), issued.organization.id, { baseUrl: BASE_URL });
  });

  const env = (overrides: Record<string, string> = {}) => ({
    QA_API_URL: api.base,
    QA_API_KEY: key,
    SQLITE_PATH: join(untouched, 'qa.sqlite'),
    LOG_LEVEL: 'silent',
    ...overrides,
  });
  const run = async (args: string[], overrides?: Record<string, string>) => {
    const result = await qa(args, env(overrides));
    expect(existsSync(untouched)).toBe(false);
    return result;
  };
  const follow = (args: string[], overrides?: Record<string, string>) => {
    const follower = spawnQa(['follow', ...args], env(overrides));
    followers.push(follower);
    return follower;
  };

  /** A job as the API creates it: runnable ones wait `queued` (no worker runs here), with events 0 and 1. */
  const createJob = async (task: string) =>
    (await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: BASE_URL, trigger: 'cli' }, key))
      .body as { jobId: string; testId?: string; resolution?: { questions: string[] } };

  /** What the QA-run workflow will do: write the job's events, then its final status. */
  const writeEvent = (jobId: string, type: JobEventType, data: Record<string, unknown> = {}) =>
    store().transaction((manager) => appendJobEvent(manager, jobId, type, data));
  const finish = (jobId: string, status: 'passed' | 'failed') => store().getRepository(Job).update({ id: jobId }, { status });

  it('qa jobs create starts a runnable job and prints the 202 body; qa jobs get prints what was asked for', async () => {
    const created = await run([
      'jobs', 'create', '--project', repositoryId, '--task', RUNNABLE, '--base-url', BASE_URL,
      '--allow', 'cdn.shop.example', '--allow', 'API.shop.example', '--commit', 'abc1234',
    ]);
    expect([created.code, created.stderr]).toEqual([0, '']);
    const body = json(created.stdout);
    expect(Object.keys(body).sort()).toEqual(['jobId', 'testId', 'workflowIdentity']);

    const got = await run(['jobs', 'get', body.jobId]);
    expect(got.code).toBe(0);
    expect(json(got.stdout).job).toMatchObject({
      jobId: body.jobId,
      status: 'queued',
      projectId: repositoryId,
      testId: body.testId,
      networkAllowlist: ['cdn.shop.example', 'api.shop.example'],
      commitSha: 'abc1234',
      trigger: 'cli',
      naturalLanguageTask: RUNNABLE,
    });
    expect(json(got.stdout).events.map((event: { type: string }) => event.type)).toEqual(['job.created', 'job.queued']);

    const replay = await run(['jobs', 'create', '--project', repositoryId, '--test', body.testId, '--base-url', BASE_URL, '--trigger', 'schedule']);
    expect(replay.code).toBe(0);
    expect(json(replay.stdout).testId).toBe(body.testId);
    expect(json((await run(['jobs', 'get', json(replay.stdout).jobId])).stdout).job.trigger).toBe('schedule');
  });

  it('qa runs create stops a side-effect task for review: the body on stdout, the questions and the answer command on stderr', async () => {
    const created = await run(['runs', 'create', '--repository', repositoryId, '--task', SIDE_EFFECT, '--base-url', BASE_URL]);
    expect(created.code).toBe(0);
    const body = json(created.stdout);
    expect(body).toMatchObject({ runId: expect.any(String), status: 'review_required', resolution: { kind: 'needs_clarification' } });
    const questions = body.resolution.questions as string[];
    expect(questions.length).toBeGreaterThan(0);
    for (const [i, question] of questions.entries()) expect(created.stderr).toContain(`${i + 1}. ${question}`);
    expect(created.stderr).toContain(`qa answer ${body.runId} --runs ${questions.map((_q, i) => `--answer "<answer ${i + 1}>"`).join(' ')}`);

    const got = await run(['runs', 'get', body.runId]);
    expect(json(got.stdout).run).toMatchObject({ runId: body.runId, repositoryId, status: 'review_required', scenarioId: null });
    expect(json(got.stdout).reports).toEqual([]);
  });

  it('create refuses the wrong options before calling the API, and passes the API’s field errors on with exit 2', async () => {
    const both = await run(['jobs', 'create', '--project', repositoryId, '--task', RUNNABLE, '--test', 'x', '--base-url', BASE_URL]);
    expect([both.code, both.stderr]).toEqual([2, 'Give exactly one of --test and --task\n']);
    const neither = await run(['runs', 'create', '--repository', repositoryId, '--base-url', BASE_URL]);
    expect([neither.code, neither.stderr]).toEqual([2, 'Give exactly one of --scenario and --task\n']);
    const trigger = await run(['jobs', 'create', '--project', repositoryId, '--task', RUNNABLE, '--base-url', BASE_URL, '--trigger', 'cron']);
    expect(trigger.code).toBe(2);
    expect(trigger.stderr).toContain("argument 'cron' is invalid");
    const badUrl = await run(['jobs', 'create', '--project', repositoryId, '--task', RUNNABLE, '--base-url', 'ftp://shop.example']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^Invalid request: baseUrl: .* \(request\.invalid, HTTP 400, field: baseUrl\)\n$/);
  });

  it('qa answer with one answer per question prints the linked child; a wrong count exits 2 with the API’s message', async () => {
    const review = await createJob(SIDE_EFFECT);
    const questions = review.resolution!.questions;

    const wrong = await run(['answer', review.jobId, ...[...questions, 'extra'].flatMap(() => ['--answer', 'yes'])]);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toBe(
      `Expected ${questions.length} answer(s), one per question in order; got ${questions.length + 1} (clarification.answer_count, HTTP 400, field: answers)\n`,
    );

    const answers = questions.map((_q, i) => `Yes (${i + 1}): place a real order in the test shop with the saved test card`);
    const answered = await run(['answer', review.jobId, ...answers.flatMap((answer) => ['--answer', answer])]);
    expect([answered.code, answered.stderr]).toEqual([0, '']);
    const child = json(answered.stdout);
    expect(child).toMatchObject({ jobId: expect.any(String), parentJobId: review.jobId, workflowIdentity: expect.any(String) });

    const parent = json((await run(['jobs', 'get', review.jobId])).stdout);
    expect(parent.job.childJobIds).toEqual([child.jobId]);
    const childView = json((await run(['runs', 'get', child.jobId])).stdout);
    expect(childView.run.parentRunId).toBe(review.jobId);
    for (const answer of answers) expect(childView.run.naturalLanguageTask).toContain(answer);
  });

  it('qa answer --runs answers in Set B words, and an evasive answer shows the child’s questions again', async () => {
    const review = await createJob(SIDE_EFFECT);
    const answered = await run(['answer', review.jobId, '--runs', ...review.resolution!.questions.flatMap(() => ['--answer', 'not sure'])]);
    expect(answered.code).toBe(0);
    const child = json(answered.stdout);
    expect(child).toMatchObject({ runId: expect.any(String), parentRunId: review.jobId, status: 'review_required' });
    expect(answered.stderr).toContain(`Run ${child.runId} needs answers before it can run (review_required):`);
    expect(answered.stderr).toContain(`qa answer ${child.runId} --runs --answer "<answer 1>"`);
  });

  it('qa repos connect posts the file’s repository; a missing, non-JSON or invalid file exits 2 saying why', async () => {
    await connectInstallation(store(), 'codehost', '77', 'acme');
    const folder = mkdtempSync(join(tmpdir(), 'qa-test-repo-file-'));
    try {
      const repository = {
        provider: 'codehost',
        providerInstallationId: '77',
        owner: 'acme',
        name: 'storefront',
        defaultBranch: 'main',
        cloneUrl: 'https://code.example/acme/storefront.git',
        baseUrl: 'https://storefront.example',
        networkAllowlist: ['cdn.storefront.example'],
        testValueSecretRefs: { demoUser: 'DEMO_USER' },
      };
      const file = join(folder, 'repo.json');
      writeFileSync(file, JSON.stringify(repository));
      const connected = await run(['repos', 'connect', '--file', file]);
      expect([connected.code, connected.stderr]).toEqual([0, '']);
      const body = json(connected.stdout);
      expect(Object.keys(body).sort()).toEqual(['ingestionRunId', 'organizationId', 'repositoryId', 'workflowRunId']);
      const stored = await callApi(api.base, 'GET', `/api/repositories/${body.repositoryId}`, undefined, key);
      expect(stored.body.repository).toMatchObject({ owner: 'acme', name: 'storefront', networkAllowlist: ['cdn.storefront.example'] });

      const missing = await run(['repos', 'connect', '--file', join(folder, 'nope.json')]);
      expect([missing.code, missing.stderr]).toEqual([2, `Cannot read the repository file ${join(folder, 'nope.json')}: no such file\n`]);
      const broken = join(folder, 'broken.json');
      writeFileSync(broken, '{"provider": "codehost",');
      const notJson = await run(['repos', 'connect', '--file', broken]);
      expect(notJson.code).toBe(2);
      expect(notJson.stderr).toMatch(new RegExp(`^The repository file ${broken} is not valid JSON: `));
      const invalid = join(folder, 'invalid.json');
      writeFileSync(invalid, JSON.stringify({ ...repository, cloneUrl: 'http://code.example/acme/storefront.git' }));
      const rejected = await run(['repos', 'connect', '--file', invalid]);
      expect(rejected.code).toBe(2);
      expect(rejected.stderr).toMatch(/\(request\.invalid, HTTP 400, field: cloneUrl\)\n$/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('qa follow (piped) prints one plain line per event, in order, as they are written, and exits 0 when the job passed', async () => {
    const { jobId } = await createJob(RUNNABLE);
    const follower = follow([jobId]);
    await until(() => lines(follower.run.stdout).length === 2, 'the history');
    await writeEvent(jobId, 'page.visited', { url: 'https://shop.example/pricing' });
    await until(() => lines(follower.run.stdout).length === 3, 'the new event');
    await writeEvent(jobId, 'job.passed', { plans: 3 });
    await finish(jobId, 'passed');
    const done = await follower.exited;

    expect(done.code).toBe(0);
    expect(done.stderr).toBe(`Job ${jobId} passed\n`);
    const printed = lines(done.stdout);
    expect(printed.map((line) => line.split(' ').slice(0, 1).concat(line.split(' ')[2]!))).toEqual([
      ['0', 'job.created'],
      ['1', 'job.queued'],
      ['2', 'page.visited'],
      ['3', 'job.passed'],
    ]);
    expect(printed[2]).toMatch(/^2 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z page\.visited \{"url":"https:\/\/shop\.example\/pricing"\}$/);
    // No control characters but the line breaks: no \r rewrites, no escape sequences.
    expect([...done.stdout].filter((char) => char !== '\n' && (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))).toEqual([]);
  });

  it('qa follow --after skips the events already seen, and exits 1 when the job failed', async () => {
    const { jobId } = await createJob(RUNNABLE);
    const follower = follow([jobId, '--after', '1', '--runs']);
    await writeEvent(jobId, 'finding.recorded', { title: 'the pricing page lists two plans, not three' });
    await writeEvent(jobId, 'job.failed', {});
    await finish(jobId, 'failed');
    const done = await follower.exited;

    expect(done.code).toBe(1);
    expect(done.stderr).toBe(`Run ${jobId} failed\n`);
    expect(lines(done.stdout).map((line) => line.split(' ')[0])).toEqual(['2', '3']);
  });

  it('qa follow of a review_required job prints its history, then the questions and the answer command, and exits 1', async () => {
    const review = await createJob(SIDE_EFFECT);
    const done = await follow([review.jobId]).exited;
    expect(done.code).toBe(1);
    expect(lines(done.stdout).map((line) => line.split(' ')[2])).toEqual(['job.created', 'job.review_required']);
    expect(done.stderr).toContain(`1. ${review.resolution!.questions[0]}`);
    expect(done.stderr).toContain(`qa answer ${review.jobId} --answer "<answer 1>"`);
    expect(done.stderr.trim().split('\n').at(-1)).toBe(`Job ${review.jobId} is waiting for answers (review_required)`);
  });

  it('qa follow reconnects after a dropped connection with ?after=<last index>: nothing missed, nothing twice', async () => {
    const { jobId } = await createJob(RUNNABLE);
    const proxy = await startDroppingProxy(api.base);
    try {
      const follower = follow([jobId], { QA_API_URL: proxy.base });
      await until(() => proxy.urls.includes(`/api/jobs/${jobId}/events?after=0`), 'the reconnection');
      await until(() => lines(follower.run.stdout).length === 2, 'the rest of the history');
      await writeEvent(jobId, 'job.started', {});
      await writeEvent(jobId, 'job.failed', {});
      await finish(jobId, 'failed');
      const done = await follower.exited;

      expect(done.code).toBe(1);
      expect(lines(done.stdout).map((line) => line.split(' ')[0])).toEqual(['0', '1', '2', '3']);
      expect(proxy.urls.filter((url) => url.includes('/events'))).toEqual([`/api/jobs/${jobId}/events`, `/api/jobs/${jobId}/events?after=0`]);
    } finally {
      await proxy.close();
    }
  });

  it('an API error exits 2 with its message: a bad key (401) or an unknown id (404)', async () => {
    const { jobId } = await createJob(RUNNABLE);
    const badKey = await run(['jobs', 'get', jobId], { QA_API_KEY: `qa_000000000000_${'A'.repeat(43)}` });
    expect([badKey.code, badKey.stdout, badKey.stderr]).toEqual([
      2,
      '',
      'Missing or invalid API key (Authorization: Bearer <key>) (auth.unauthorized, HTTP 401)\n',
    ]);
    const unknown = randomUUID();
    const notFound = 'No job with that id in this organization (job.not_found, HTTP 404)\n';
    const verbs = [['jobs', 'get', unknown], ['runs', 'get', unknown], ['follow', unknown], ['answer', unknown, '--answer', 'yes']];
    const results = await Promise.all(verbs.map((args) => run(args)));
    expect(results.map((result) => [result.code, result.stderr])).toEqual(verbs.map(() => [2, notFound]));
  });

  it('an unreachable QA_API_URL, a missing QA_API_KEY or a bad --after exits 2 saying what to fix', async () => {
    const port = await freePort();
    const unreachable = await run(['jobs', 'get', randomUUID()], { QA_API_URL: `http://127.0.0.1:${port}/` });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toBe(`Could not reach the QA API at http://127.0.0.1:${port} (QA_API_URL): connect ECONNREFUSED 127.0.0.1:${port}\n`);
    const noKey = await run(['follow', randomUUID()], { QA_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^QA_API_KEY is not set: .*qa keys create --org <slug>/);
    const badUrl = await run(['jobs', 'get', 'x'], { QA_API_URL: 'ftp://qa.example' });
    expect([badUrl.code, badUrl.stderr]).toEqual([2, 'Invalid configuration: QA_API_URL must be a URL like http://127.0.0.1:3000 (got "ftp://qa.example/")\n']);
    const badAfter = await run(['follow', randomUUID(), '--after', '-1']);
    expect(badAfter.code).toBe(2);
    expect(badAfter.stderr).toContain('must be an event index');
  });
});
