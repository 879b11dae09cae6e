import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgendaJobEntity } from '../../../src/queue/mysql-backend/agenda-job.entity.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Artifact } from '../../../src/store/entities/artifact.entity.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { takeRunToken } from '../../../src/workflows/run-recorder.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

interface Line {
  index: number;
  type: string;
  data: Record<string, unknown>;
}

/** A target whose pages never answer: a run on it waits in its first step until something stops it. */
async function startHangingServer(): Promise<{ url: string; server: Server; waiting: ServerResponse[] }> {
  const waiting: ServerResponse[] = [];
  const server = createServer((_req, res) => void waiting.push(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, waiting };
}

describe('stopping a run: cancel, the time limit, and a newer attempt', () => {
  let target: Awaited<ReturnType<typeof startHangingServer>>;
  let worker: TestWorker;
  let api: TestApi;
  let key: string;
  let repositoryId: string;

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    for (const res of target?.waiting ?? []) res.destroy();
    target?.server.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    target = await startHangingServer();
    worker = await startTestWorker(store(), { timeLimitMs: 2_500, navigationTimeoutMs: 60_000, stepTimeoutMs: 60_000 });
    api = await startTestApi(store(), { artifacts: worker.artifacts });
  });

  beforeEach(async () => {
    const { key: created, organization } = await createApiKey(store(), 'acme');
    key = created;
    repositoryId = await insertRepository(store(), organization.id, { baseUrl: target.url });
  });

  async function readStream(jobId: string, onLine: (line: Line) => Promise<void> | void = () => undefined): Promise<Line[]> {
    const response = await fetch(`${api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    const lines: Line[] = [];
    let buffer = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Line;
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        await onLine(line);
      }
    }
    return lines;
  }

  const create = (task: string) =>
    callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: target.url, trigger: 'cli' }, key);

  it('cancels a running job: it stops at once, writes nothing more, and stays cancelled', async () => {
    const created = await create('Open the home page');
    const jobId = created.body.jobId as string;
    const lines = await readStream(jobId, async (line) => {
      if (line.type === 'step.started') {
        const cancelled = await callApi(api.base, 'POST', `/api/jobs/${jobId}/cancel`, undefined, key);
        expect([cancelled.status, cancelled.body]).toEqual([200, { jobId, status: 'cancelled' }]);
      }
    });
    expect(lines.map((line) => line.type)).toEqual(['job.created', 'job.queued', 'job.started', 'step.started', 'job.cancelled']);
    // The worker notices within its poll and stops; give it time to (wrongly) write anything.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const view = await callApi(api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    expect(view.body.job.status).toBe('cancelled');
    expect(view.body.events.map((event: Line) => event.type)).toEqual(lines.map((line) => line.type));
    expect(view.body.findings).toEqual([]);

    const again = await callApi(api.base, 'POST', `/api/jobs/${jobId}/cancel`, undefined, key);
    expect([again.status, again.body.error.code]).toEqual([409, 'job.not_cancellable']);
    const { key: otherKey } = await createApiKey(store(), 'globex');
    expect((await callApi(api.base, 'POST', `/api/runs/${jobId}/cancel`, undefined, otherKey)).status).toBe(404);
  });

  it('cancels a job that awaits answers, under either naming set', async () => {
    const created = await create('Delete the demo account');
    expect(created.body.status).toBe('review_required');
    const cancelled = await callApi(api.base, 'POST', `/api/runs/${created.body.jobId as string}/cancel`, undefined, key);
    expect([cancelled.status, cancelled.body]).toEqual([200, { runId: created.body.jobId, status: 'cancelled' }]);
    const answered = await callApi(api.base, 'POST', `/api/jobs/${created.body.jobId as string}/clarifications`, { answers: ['Yes'] }, key);
    expect([answered.status, answered.body.error.code]).toEqual([409, 'job.not_awaiting_answers']);
  });

  it('stops a run that outlives its time limit and fails it with a time_limit finding', async () => {
    const created = await create('Open the home page');
    const lines = await readStream(created.body.jobId as string);
    const types = lines.map((line) => line.type);
    expect([types.slice(0, 4), types.at(-1)]).toEqual([['job.created', 'job.queued', 'job.started', 'step.started'], 'job.failed']);
    const view = await callApi(api.base, 'GET', `/api/jobs/${created.body.jobId as string}`, undefined, key);
    expect(view.body.job.status).toBe('failed');
    // The time limit first; the page's own aborted load may add a failed-request finding after it.
    expect(view.body.findings[0]).toMatchObject({ kind: 'time_limit', severity: 'error', stepIndex: 0, title: 'The run took longer than its time limit (3 s) and was stopped' });
    const findingEvents = lines.filter((line) => line.type === 'finding.recorded');
    expect(findingEvents).toHaveLength(view.body.findings.length);
  });

  it('stops an attempt that a newer one took over: it writes nothing more, records no failure, and is not retried', async () => {
    const created = await create('Open the home page');
    const jobId = created.body.jobId as string;
    const waited = target.waiting.length;
    let eventsBefore = 0;
    await readStream(jobId, async (line) => {
      if (line.type !== 'step.started') return;
      // A newer attempt takes the run (as a worker that claimed the job after this one's lock expired would)
      // while this one waits on the page; then the page answers and this attempt tries to record its step.
      expect(await takeRunToken(store(), jobId)).toBe(2);
      eventsBefore = await store().getRepository(JobEvent).countBy({ jobId });
      while (target.waiting.length === waited) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const res of target.waiting.splice(waited)) res.end('<!doctype html><html lang="en"><title>Shop</title><main><h1>Plans</h1></main></html>');
      throw new StreamDone();
    }).catch((error: unknown) => {
      if (!(error instanceof StreamDone)) throw error;
    });

    const job = await store().getRepository(Job).findOneByOrFail({ id: jobId });
    const queued = async () => store().getRepository(AgendaJobEntity).findOneByOrFail({ id: job.workflowId! });
    const deadline = Date.now() + 20_000;
    while ((await queued()).lastFinishedAt === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));

    const workflow = await queued();
    expect(workflow.lastFinishedAt).not.toBeNull();
    expect([workflow.failCount ?? 0, workflow.failReason]).toEqual([0, null]);
    const events = await store().getRepository(JobEvent).find({ where: { jobId }, order: { seq: 'ASC' } });
    expect(events.map((event) => event.type)).toEqual(['job.created', 'job.queued', 'job.started', 'step.started']);
    expect(events).toHaveLength(eventsBefore);
    expect(await store().getRepository(Finding).countBy({ jobId })).toBe(0);
    expect(await store().getRepository(Artifact).countBy({ jobId })).toBe(0);
    // The run is the newer attempt's now: still running, at its token.
    expect(await store().getRepository(Job).findOneByOrFail({ id: jobId })).toMatchObject({ status: 'running', runAttempt: 2 });
  });
});

/** Ends reading a stream that would otherwise wait for a job that is not going to finish. */
class StreamDone extends Error {}
