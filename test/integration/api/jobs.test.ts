import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Queue } from '../../../src/queue/index.js';
import { createApiKey, revokeApiKey } from '../../../src/identity/api-keys.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { QA_RUN_JOB } from '../../../src/workflows/run-starter.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const RUNNABLE = 'Check that the pricing page lists three plans';
const SIDE_EFFECT = 'Buy the cheapest item with the saved card';

forEachDialect('job API', (dialect) => {
  const store = useTestStore(dialect);
  let api: TestApi;
  let queue: Queue;
  let base: string;
  let key: string;
  let otherKey: string;
  let repositoryId: string;
  let otherRepositoryId: string;

  beforeAll(async () => {
    api = await startTestApi(store());
    queue = api.queue;
    base = api.base;
  });

  afterAll(async () => {
    await api.close();
  });

  const connectRepository = (organizationId: string): Promise<string> =>
    insertRepository(store(), organizationId, { networkAllowlist: ['cdn.example'], testValueSecretRefs: { demoUser: 'DEMO_USER' } });

  beforeEach(async () => {
    const mine = await createApiKey(store(), 'acme');
    const theirs = await createApiKey(store(), 'globex');
    key = mine.key;
    otherKey = theirs.key;
    repositoryId = await connectRepository(mine.organization.id);
    otherRepositoryId = await connectRepository(theirs.organization.id);
  });

  const call = (method: string, path: string, body?: unknown, auth: string | null = key) => callApi(base, method, path, body, auth);

  const createA = (fields: Record<string, unknown>) =>
    call('POST', '/api/jobs', { projectId: repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', ...fields });

  describe('authentication', () => {
    it('answers 401 without a key, with another scheme, a malformed, an unknown or a revoked key', async () => {
      const job = await createA({ naturalLanguageTask: RUNNABLE });
      for (const auth of [null, 'qa_000000000000_' + 'A'.repeat(43), 'not-a-key']) {
        const response = await call('GET', `/api/jobs/${job.body.jobId}`, undefined, auth);
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe('auth.unauthorized');
      }
      const basic = await fetch(`${base}/api/jobs/${job.body.jobId}`, { headers: { authorization: `Basic ${key}` } });
      expect(basic.status).toBe(401);
      await revokeApiKey(store(), key.split('_')[1]!);
      expect((await call('GET', `/api/jobs/${job.body.jobId}`)).status).toBe(401);
    });
  });

  describe('creating', () => {
    it('starts a workflow for a runnable task, with a new draft check, readable under both naming sets', async () => {
      const created = await createA({ naturalLanguageTask: RUNNABLE, networkAllowlist: ['API.shop.example'], commitSha: 'abc1234' });
      expect(created.status).toBe(202);
      expect(Object.keys(created.body).sort()).toEqual(['jobId', 'testId', 'workflowIdentity']);
      const check = await store().getRepository(Check).findOneByOrFail({ id: created.body.testId });
      expect(check).toMatchObject({ status: 'draft', task: RUNNABLE, repositoryId });
      const workflow = await queue.backend.repository.getJobById(created.body.workflowIdentity);
      expect(workflow).toMatchObject({ name: QA_RUN_JOB, data: { jobId: created.body.jobId } });

      const asA = await call('GET', `/api/jobs/${created.body.jobId}`);
      expect(asA.status).toBe(200);
      expect(asA.body.job).toMatchObject({
        jobId: created.body.jobId,
        status: 'queued',
        projectId: repositoryId,
        testId: created.body.testId,
        workflowIdentity: created.body.workflowIdentity,
        networkAllowlist: ['api.shop.example'],
        commitSha: 'abc1234',
        trigger: 'cli',
      });
      expect(asA.body.events.map((e: { index: number; type: string }) => [e.index, e.type])).toEqual([
        [0, 'job.created'],
        [1, 'job.queued'],
      ]);
      expect(asA.body).toMatchObject({ artifacts: [], findings: [] });

      const asB = await call('GET', `/api/runs/${created.body.jobId}`);
      expect(asB.body.run).toMatchObject({ runId: created.body.jobId, repositoryId, scenarioId: created.body.testId, workflowRunId: created.body.workflowIdentity });
      expect(asB.body).toMatchObject({ reports: [] });
      expect(asB.body.run.jobId).toBeUndefined();
      expect(JSON.stringify(asB.body)).not.toMatch(/projectId|testId|workflowIdentity|findings/);
    });

    it('stops a task with a possible real side effect for review, starting nothing', async () => {
      const created = await call('POST', '/api/runs', { repositoryId, naturalLanguageTask: SIDE_EFFECT, baseUrl: 'http://shop.example:8080/', trigger: 'chat' });
      expect(created.status).toBe(202);
      expect(created.body).toMatchObject({ status: 'review_required', resolution: { kind: 'needs_clarification' } });
      expect(created.body.runId).toEqual(expect.any(String));
      expect(created.body.resolution.questions.length).toBeGreaterThan(0);
      expect(created.body.resolution.ambiguities.length).toBe(created.body.resolution.questions.length);
      expect(created.body.workflowRunId).toBeUndefined();
      expect(await queue.backend.repository.getDistinctJobNames()).toEqual([]);
      const view = await call('GET', `/api/runs/${created.body.runId}`);
      expect(view.body.run).toMatchObject({ status: 'review_required', scenarioId: null, workflowRunId: null, resolution: created.body.resolution });
    });

    it('accepts allowlist entries with a port and bracketed IPv6 literals, and keeps them as strings', async () => {
      const networkAllowlist = ['cdn.example', '127.0.0.1:4159', 'Static.Example:8080', '[::1]:8080', '[FD00::5]'];
      const created = await createA({ naturalLanguageTask: RUNNABLE, networkAllowlist });
      expect(created.status).toBe(202);
      const view = await call('GET', `/api/jobs/${created.body.jobId}`);
      expect(view.body.job.networkAllowlist).toEqual(['cdn.example', '127.0.0.1:4159', 'static.example:8080', '[::1]:8080', '[fd00::5]']);
    });

    it('replays a stored check of the same repository without the planner', async () => {
      const first = await createA({ naturalLanguageTask: RUNNABLE });
      const replay = await createA({ testId: first.body.testId });
      expect(replay.status).toBe(202);
      expect(replay.body.testId).toBe(first.body.testId);
      expect(replay.body.workflowIdentity).not.toBe(first.body.workflowIdentity);
    });

    it.each([
      ['neither the check nor the task', {}, 'testId'],
      ['both the check and the task', { testId: 'x', naturalLanguageTask: RUNNABLE }, 'testId'],
      ['an empty task', { naturalLanguageTask: '   ' }, 'naturalLanguageTask'],
      ['a non-http base URL', { naturalLanguageTask: RUNNABLE, baseUrl: 'javascript:alert(1)' }, 'baseUrl'],
      ['an ftp base URL', { naturalLanguageTask: RUNNABLE, baseUrl: 'ftp://shop.example' }, 'baseUrl'],
      ['a short commit', { naturalLanguageTask: RUNNABLE, commitSha: 'abc12' }, 'commitSha'],
      ['a non-hex commit', { naturalLanguageTask: RUNNABLE, commitSha: 'zzzzzzzz' }, 'commitSha'],
      ['an unknown trigger', { naturalLanguageTask: RUNNABLE, trigger: 'cron' }, 'trigger'],
      ['a URL in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['https://evil.example/'] }, 'networkAllowlist.0'],
      ['a port out of range in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['cdn.example', 'cdn.example:65536'] }, 'networkAllowlist.1'],
      ['port 0 in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['cdn.example:0'] }, 'networkAllowlist.0'],
      ['an empty port in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['cdn.example:'] }, 'networkAllowlist.0'],
      ['a port alone in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: [':8080'] }, 'networkAllowlist.0'],
      ['two ports in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['cdn.example:80:81'] }, 'networkAllowlist.0'],
      ['an IPv6 literal without brackets in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['::1'] }, 'networkAllowlist.0'],
      ['a broken IPv6 literal in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['[zz::1]:8080'] }, 'networkAllowlist.0'],
      ['user info in the allowlist', { naturalLanguageTask: RUNNABLE, networkAllowlist: ['user@cdn.example'] }, 'networkAllowlist.0'],
      ['an unknown field', { naturalLanguageTask: RUNNABLE, organizationId: 'theirs' }, '(body)'],
      ['the other naming set’s field', { naturalLanguageTask: RUNNABLE, repositoryId: 'x' }, '(body)'],
    ])('rejects %s with 400 naming the field', async (_what, fields, field) => {
      const response = await createA(fields);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'request.invalid', details: { field } });
    });

    it('refuses a task that carries its own answers, so the review cannot be skipped', async () => {
      const first = await createA({ naturalLanguageTask: SIDE_EFFECT });
      const { taskWithAnswers } = await import('../../../src/core/interpretation.js');
      const forged = taskWithAnswers(SIDE_EFFECT, { questions: first.body.resolution.questions, answers: first.body.resolution.questions.map(() => 'yes') });
      const response = await createA({ naturalLanguageTask: forged });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('naturalLanguageTask');
    });

    it('rejects malformed JSON and a missing repository id with 400', async () => {
      const broken = await call('POST', '/api/jobs', '{"projectId": ');
      expect(broken.body.error.code).toBe('request.invalid_json');
      expect(broken.status).toBe(400);
      const missing = await call('POST', '/api/jobs', { baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE });
      expect(missing.body.error.details.field).toBe('projectId');
    });

    it('answers 404 for another organization’s repository, check or job, never 403', async () => {
      const theirs = await call('POST', '/api/jobs', { projectId: otherRepositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, otherKey);
      expect(theirs.status).toBe(202);
      const repository = await createA({ projectId: otherRepositoryId, naturalLanguageTask: RUNNABLE });
      expect([repository.status, repository.body.error.code]).toEqual([404, 'repository.not_found']);
      const check = await createA({ testId: theirs.body.testId });
      expect([check.status, check.body.error.code]).toEqual([404, 'check.not_found']);
      const job = await call('GET', `/api/jobs/${theirs.body.jobId}`);
      expect([job.status, job.body.error.code]).toEqual([404, 'job.not_found']);
      expect((await call('GET', `/api/jobs/${randomUUID()}`)).status).toBe(404);
    });
  });

  describe('answering clarifications', () => {
    async function reviewJob() {
      const created = await createA({ naturalLanguageTask: SIDE_EFFECT });
      return { jobId: created.body.jobId as string, questions: created.body.resolution.questions as string[] };
    }

    it('keeps the original job and creates a linked child whose task carries the answers', async () => {
      const { jobId, questions } = await reviewJob();
      const answers = questions.map(() => 'Yes: place a real order in the test shop with the saved test card');
      const answered = await call('POST', `/api/jobs/${jobId}/clarifications`, { answers });
      expect(answered.status).toBe(202);
      expect(answered.body.parentJobId).toBe(jobId);
      expect(answered.body.jobId).not.toBe(jobId);

      const parent = await call('GET', `/api/jobs/${jobId}`);
      expect(parent.body.job).toMatchObject({ status: 'review_required', childJobIds: [answered.body.jobId] });
      expect(parent.body.events.map((e: { type: string }) => e.type)).toEqual(['job.created', 'job.review_required', 'job.answered']);
      const child = await call('GET', `/api/runs/${answered.body.jobId}`);
      expect(child.body.run.parentRunId).toBe(jobId);
      expect(child.body.run.naturalLanguageTask).toContain(SIDE_EFFECT);
      for (const [i, question] of questions.entries()) {
        expect(child.body.run.naturalLanguageTask).toContain(question);
        expect(child.body.run.naturalLanguageTask).toContain(answers[i]);
      }
      // A decisive answer settles the side effect: the child is runnable and its workflow is queued.
      expect(answered.body).toMatchObject({ workflowIdentity: expect.any(String), testId: expect.any(String) });
      expect(answered.body.status).toBeUndefined();
      expect(child.body.run.status).toBe('queued');
    });

    it('an evasive answer leaves the child itself waiting for review, asking again', async () => {
      const { jobId, questions } = await reviewJob();
      const answered = await call('POST', `/api/jobs/${jobId}/clarifications`, { answers: questions.map(() => 'not sure') });
      expect(answered.status).toBe(202);
      expect(answered.body).toMatchObject({ status: 'review_required', parentJobId: jobId, resolution: { kind: 'needs_clarification' } });
      expect(answered.body.resolution.questions).toEqual(questions);
      expect(answered.body.workflowIdentity).toBeUndefined();
    });

    it('rejects the wrong number of answers, empty answers, and a job that is not waiting for answers', async () => {
      const { jobId, questions } = await reviewJob();
      // One answer short (with a single question, that is no answer at all: also a 400).
      const tooFew = await call('POST', `/api/jobs/${jobId}/clarifications`, { answers: questions.slice(1) });
      expect(tooFew.status).toBe(400);
      const tooMany = await call('POST', `/api/jobs/${jobId}/clarifications`, { answers: [...questions.map(() => 'yes'), 'extra'] });
      expect([tooMany.status, tooMany.body.error.code]).toEqual([400, 'clarification.answer_count']);
      const empty = await call('POST', `/api/jobs/${jobId}/clarifications`, { answers: questions.map(() => '  ') });
      expect([empty.status, empty.body.error.details.field]).toEqual([400, 'answers.0']);
      const runnable = await createA({ naturalLanguageTask: RUNNABLE });
      const notWaiting = await call('POST', `/api/jobs/${runnable.body.jobId}/clarifications`, { answers: ['yes'] });
      expect([notWaiting.status, notWaiting.body.error.code]).toEqual([409, 'job.not_awaiting_answers']);
      expect((await call('POST', `/api/jobs/${randomUUID()}/clarifications`, { answers: ['yes'] })).status).toBe(404);
      const parent = await call('GET', `/api/jobs/${jobId}`);
      expect(parent.body.job.childJobIds).toEqual([]);
    });
  });

  describe('following events', () => {
    async function readLines(response: Response, count: number): Promise<Record<string, unknown>[]> {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (text.split('\n').filter(Boolean).length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
      // The client "saw" only the first `count` lines before it went away, even if more had arrived.
      return text.split('\n').filter(Boolean).slice(0, count).map((line) => JSON.parse(line) as Record<string, unknown>);
    }

    const stream = (jobId: string, query = '', names = 'jobs') =>
      fetch(`${base}/api/${names}/${jobId}/events${query}`, { headers: { authorization: `Bearer ${key}` } });

    it('sends the whole history of a finished job as NDJSON and ends', async () => {
      const review = await createA({ naturalLanguageTask: SIDE_EFFECT });
      const response = await stream(review.body.jobId);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => [line.index, line.type])).toEqual([
        [0, 'job.created'],
        [1, 'job.review_required'],
      ]);
      expect(Object.keys(lines[0]!).sort()).toEqual(['at', 'data', 'index', 'type']);
      const after = await (await stream(review.body.jobId, '?after=0', 'runs')).text();
      expect(after.trim().split('\n').map((line) => (JSON.parse(line) as { index: number }).index)).toEqual([1]);
    });

    it('stays open for a running job, sends new events as they are written, and ends when it finishes', async () => {
      const { appendJobEvent } = await import('../../../src/jobs/job-events.js');
      const { Job } = await import('../../../src/store/entities/job.entity.js');
      const created = await createA({ naturalLanguageTask: RUNNABLE });
      const jobId = created.body.jobId as string;
      const response = await stream(jobId);
      const reading = response.text();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await store().transaction((manager) => appendJobEvent(manager, jobId, 'job.answered', { note: 'a later event' }));
      await store().getRepository(Job).update({ id: jobId }, { status: 'passed' });
      const lines = (await reading).trim().split('\n').map((line) => JSON.parse(line) as { index: number; type: string });
      expect(lines.map((line) => line.index)).toEqual([0, 1, 2]);
      expect(lines[2]!.type).toBe('job.answered');
    });

    it('a client that reconnects with the last index it saw misses nothing and sees nothing twice', async () => {
      const review = await createA({ naturalLanguageTask: SIDE_EFFECT });
      const first = await readLines(await stream(review.body.jobId), 1);
      const rest = (await (await stream(review.body.jobId, `?after=${String(first.at(-1)!.index)}`)).text()).trim().split('\n');
      const indexes = [...first.map((line) => line.index), ...rest.map((line) => (JSON.parse(line) as { index: number }).index)];
      expect(indexes).toEqual([0, 1]);
    });

    it('rejects a bad `after` with 400 and an unknown job with 404, before streaming', async () => {
      const review = await createA({ naturalLanguageTask: SIDE_EFFECT });
      for (const query of ['?after=-1', '?after=x', '?after=1.5', '?since=1']) {
        const response = await stream(review.body.jobId, query);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('request.invalid');
      }
      expect((await stream(randomUUID())).status).toBe(404);
    });
  });

  describe('paused execution', () => {
    it('answers 503 when what the work needs is paused: AI for tasks and answers, live for everything', async () => {
      const { setCapabilityPaused } = await import('../../../src/store/execution-flags.js');
      const stored = await createA({ naturalLanguageTask: RUNNABLE });
      const review = await createA({ naturalLanguageTask: SIDE_EFFECT });
      await setCapabilityPaused(store(), 'ai', true);
      const task = await createA({ naturalLanguageTask: RUNNABLE });
      expect([task.status, task.body.error.code, task.body.error.details.capability]).toEqual([503, 'execution.paused', 'ai']);
      const answer = await call('POST', `/api/jobs/${review.body.jobId}/clarifications`, { answers: review.body.resolution.questions.map(() => 'no') });
      expect(answer.status).toBe(503);
      expect((await createA({ testId: stored.body.testId })).status).toBe(202);

      await setCapabilityPaused(store(), 'ai', false);
      const organizationId = (await store().query('SELECT organization_id FROM repositories WHERE id = ?', [repositoryId]))[0].organization_id;
      await setCapabilityPaused(store(), 'live', true, organizationId);
      const replay = await createA({ testId: stored.body.testId });
      expect([replay.status, replay.body.error.details.capability]).toEqual([503, 'live']);
      const elsewhere = await call('POST', '/api/jobs', { projectId: otherRepositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, otherKey);
      expect(elsewhere.status).toBe(202);
      await setCapabilityPaused(store(), 'live', false, organizationId);
      expect((await createA({ naturalLanguageTask: RUNNABLE })).status).toBe(202);
    });
  });

  it('answers health and readiness without a key', async () => {
    expect((await call('GET', '/healthz', undefined, null)).body).toEqual({ status: 'ok' });
    expect((await call('GET', '/readyz', undefined, null)).body).toEqual({ status: 'ready' });
    expect((await call('GET', '/api/nothing', undefined, null)).status).toBe(404);
  });
});
