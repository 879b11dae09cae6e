import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { JobEventType } from '../../../src/core/job-lifecycle.js';
import { appendJobEvent } from '../../../src/jobs/job-events.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { CONFIG_VARIABLES, QA_ENTRY } from '../../support/qa-cli.js';

const SIDE_EFFECT = 'Buy the cheapest item with the saved card';
const BASE_URL = 'https://shop.example';
const TOOLS = ['answer_questions', 'cancel_job', 'create_job', 'get_check_source', 'get_job', 'list_checks', 'replay_checks', 'wait_for_job'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- structured content is read field by field
type Structured = Record<string, any>;

interface Called {
  isError: boolean;
  text: string;
  structured: Structured;
}

async function call(client: Client, name: string, args: Record<string, unknown>, onprogress?: (progress: Progress) => void): Promise<Called> {
  const result = (await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined)) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Structured };
}

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'mcp-tools-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/**
 * The MCP tools as a coding agent uses them, through the SDK's own client: over stdio against the real `qa mcp`
 * process (which calls the API over HTTP), and over streamable HTTP at the service's `/mcp` (which calls the use
 * cases in process). One API, no worker and no browser: the test writes what a run would write.
 */
describe('MCP tools for coding agents', () => {
  const store = useTestStore('mysql');
  const untouched = join(mkdtempSync(join(tmpdir(), 'qa-test-mcp-')), 'never-created');
  let api: TestApi;
  let shop: AcmeShop;

  beforeAll(async () => {
    api = await startTestApi(store());
  });

  afterAll(async () => {
    await api.close();
    rmSync(join(untouched, '..'), { recursive: true, force: true });
  });

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
  });

  /** What the QA-run workflow writes: an event (the feed wakes on it), then, for a last event, the final status. */
  const writeEvent = (jobId: string, type: JobEventType, data: Record<string, unknown> = {}) =>
    store().transaction((manager) => appendJobEvent(manager, jobId, type, data));

  async function failTheRun(jobId: string): Promise<void> {
    await store().getRepository(Job).update({ id: jobId }, { status: 'running' });
    await writeEvent(jobId, 'job.started');
    await writeEvent(jobId, 'step.started', { index: 0, action: 'assert', description: 'The cart shows 2 items' });
    await store().getRepository(Finding).insert({
      id: randomUUID(), organizationId: shop.organizationId, jobId, position: 0, kind: 'assertion_failed', severity: 'error',
      title: 'The cart does not show 2 items', detail: 'The badge reads 1', stepIndex: 0, expected: '2 items', actual: ['1 item'], artifactIds: [],
    });
    await writeEvent(jobId, 'step.failed', { index: 0, ms: 12, kind: 'assertion_failed', message: 'expected 2 items' });
    await writeEvent(jobId, 'job.failed');
    await store().getRepository(Job).update({ id: jobId }, { status: 'failed' });
  }

  /** Everything an agent does in a session; the same on either transport. */
  async function agentSession(client: Client): Promise<{ childJobId: string }> {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const create = tools.find((tool) => tool.name === 'create_job')!;
    expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual(['baseUrl', 'commitSha', 'naturalLanguageTask', 'networkAllowlist', 'projectId', 'testId']);
    expect(create.inputSchema.required).toEqual(['projectId', 'baseUrl']);

    // A task with a side effect stops for answers: questions to relay, not an error.
    const review = await call(client, 'create_job', { projectId: shop.repositoryId, naturalLanguageTask: SIDE_EFFECT, baseUrl: BASE_URL });
    expect(review.isError).toBe(false);
    expect(review.structured).toMatchObject({ status: 'review_required', resolution: { kind: 'needs_clarification' } });
    const questions = review.structured.resolution.questions as string[];
    expect(questions.length).toBeGreaterThan(0);
    expect(review.text).toContain('answer_questions');
    expect(review.text).toContain(`1. ${questions[0]}`);

    const answered = await call(client, 'answer_questions', { jobId: review.structured.jobId, answers: questions.map((_q, i) => `Yes (${i + 1}): place a real order in the test shop with the saved test card`) });
    expect(answered).toMatchObject({ isError: false, structured: { parentJobId: review.structured.jobId, status: 'queued', testId: expect.any(String) } });
    const childJobId = answered.structured.jobId as string;

    const got = await call(client, 'get_job', { jobId: childJobId });
    expect(got.structured).toMatchObject({ jobId: childJobId, status: 'queued', finished: false, parentJobId: review.structured.jobId, steps: [], findings: [] });
    expect(got.structured.links.job).toMatch(new RegExp(`/jobs/${childJobId}$`));

    // Nothing runs it yet: the bounded wait answers with the job still queued and where to resume.
    const progress: Progress[] = [];
    const waited = await call(client, 'wait_for_job', { jobId: childJobId, waitSeconds: 1 }, (p) => progress.push(p));
    expect(waited.structured).toMatchObject({ jobId: childJobId, status: 'queued', finished: false, after: 1 });
    expect(waited.text).toContain('after 1');
    expect(progress.map((p) => [p.progress, p.message])).toEqual([[1, 'job.created'], [2, 'job.queued']]);

    // Resumed, it follows the run as it is written, with progress, to the verdict.
    const more: Progress[] = [];
    const verdict = call(client, 'wait_for_job', { jobId: childJobId, after: 1, waitSeconds: 30 }, (p) => more.push(p));
    await failTheRun(childJobId);
    const final = await verdict;
    expect(final.isError).toBe(false);
    expect(final.structured).toMatchObject({
      status: 'failed', finished: true, after: 5,
      steps: [{ index: 0, action: 'assert', description: 'The cart shows 2 items', status: 'failed', message: 'expected 2 items' }],
      findings: [{ title: 'The cart does not show 2 items', expected: '2 items', actual: ['1 item'], severity: 'error' }],
    });
    expect(final.text).toContain('expected: 2 items');
    expect(final.text).toContain('actual: 1 item');
    expect(more.map((p) => p.message)).toEqual(['job.started', 'step.started: The cart shows 2 items', 'step.failed', 'job.failed']);

    const checks = await call(client, 'list_checks', { projectId: shop.repositoryId });
    expect(checks.structured.checks).toEqual(expect.arrayContaining([expect.objectContaining({ testId: shop.checkId, status: 'active', version: 1 })]));
    const source = await call(client, 'get_check_source', { testId: shop.checkId });
    expect(source).toMatchObject({ isError: false, text: '// generated', structured: { testId: shop.checkId, source: '// generated' } });

    // Every active check of the repository (the answered task's draft is not one), then one cancelled.
    const replayed = await call(client, 'replay_checks', { projectId: shop.repositoryId, baseUrl: BASE_URL });
    expect(replayed.structured.replays).toEqual([{ testId: shop.checkId, jobId: expect.any(String), status: 'queued' }]);
    const replayJobId = replayed.structured.replays[0].jobId as string;
    expect(await call(client, 'cancel_job', { jobId: replayJobId })).toMatchObject({ isError: false, structured: { jobId: replayJobId, status: 'cancelled' } });
    expect((await call(client, 'wait_for_job', { jobId: replayJobId, waitSeconds: 5 })).structured).toMatchObject({ status: 'cancelled', finished: true });

    // The API's own checks answer bad requests, with the catalogue's code.
    const both = await call(client, 'create_job', { projectId: shop.repositoryId, testId: shop.checkId, naturalLanguageTask: 'Check the home page', baseUrl: BASE_URL });
    expect(both).toMatchObject({ isError: true, structured: { error: { code: 'request.invalid', status: 400 } } });
    expect((await call(client, 'get_job', { jobId: 'not-an-id' })).structured).toMatchObject({ error: { code: 'job.not_found', status: 404 } });
    return { childJobId };
  }

  it('over stdio: `qa mcp` calls the API with QA_API_URL and QA_API_KEY', async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', QA_API_URL: api.base, QA_API_KEY: shop.key, SQLITE_PATH: join(untouched, 'qa.sqlite'), LOG_LEVEL: 'silent' };
    for (const name of CONFIG_VARIABLES) if (!(name in env)) delete env[name];
    const transport = new StdioClientTransport({ command: process.execPath, args: [QA_ENTRY, 'mcp'], env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = await connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'qa' });
      await agentSession(client);
    } finally {
      await client.close();
    }
    expect(stderr).toBe('');
  });

  it('over streamable HTTP at /mcp, behind the API key: another organization gets the API\'s 404', async () => {
    const over = (key: string) => new StreamableHTTPClientTransport(new URL(`${api.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = await connect(over(shop.key));
    let childJobId: string;
    try {
      ({ childJobId } = await agentSession(client));
    } finally {
      await client.close();
    }

    const theirs = await connect(over(shop.otherKey));
    try {
      const api404 = await callApi(api.base, 'GET', `/api/jobs/${childJobId}`, undefined, shop.otherKey);
      expect(api404.status).toBe(404);
      for (const [tool, args] of [['get_job', { jobId: childJobId }], ['wait_for_job', { jobId: childJobId, waitSeconds: 1 }], ['cancel_job', { jobId: childJobId }], ['get_check_source', { testId: shop.checkId }]] as const) {
        const answer = await call(theirs, tool, args);
        expect([tool, answer.isError]).toEqual([tool, true]);
        const code = tool === 'get_check_source' ? 'check.not_found' : api404.body.error.code;
        expect(answer.structured.error).toMatchObject({ code, status: 404 });
      }
      expect((await call(theirs, 'get_job', { jobId: childJobId })).structured.error.message).toBe(api404.body.error.message);
      expect((await call(theirs, 'list_checks', {})).structured.checks).toEqual([]);
    } finally {
      await theirs.close();
    }

    // No key, no tools: the API's 401; and the stateless endpoint opens no stream.
    const anonymous = await fetch(`${api.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect([anonymous.status, ((await anonymous.json()) as Structured).error.code]).toEqual([401, 'auth.unauthorized']);
    const stream = await fetch(`${api.base}/mcp`, { headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream' } });
    expect([stream.status, ((await stream.json()) as Structured).error.code]).toEqual([405, 'mcp.method_not_allowed']);
  });
});
