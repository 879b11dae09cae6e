import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { createEventFeed, type FeedEnd, type FeedTimers } from '../../../src/jobs/event-feed.js';
import { appendJobEvent } from '../../../src/jobs/job-events.js';
import { readJobProgress } from '../../../src/jobs/job-progress.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';

const RUNNABLE = 'Check that the pricing page lists three plans';
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for a condition the service reaches asynchronously (bounded by Jest's test timeout, never asserted on time). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await pause(5);
}

/** Many followers of one job through the real HTTP app, sharing one poller per job (src/jobs/event-feed.ts). */
forEachDialect('following job events', (dialect) => {
  const store = useTestStore(dialect);
  let api: TestApi;
  let key: string;
  let otherKey: string;
  let repositoryId: string;
  /** Jobs whose feed reads fail, as with a database that went away. */
  const failing = new Set<string>();

  beforeAll(async () => {
    api = await startTestApi(store(), {
      feedRead: (read) => async (jobId, after) => {
        if (failing.has(jobId)) throw new Error('read ECONNRESET');
        return read(jobId, after);
      },
    });
  });

  afterAll(async () => {
    await api.close();
  });

  beforeEach(async () => {
    failing.clear();
    const mine = await createApiKey(store(), 'acme');
    otherKey = (await createApiKey(store(), 'globex')).key;
    key = mine.key;
    repositoryId = await insertRepository(store(), mine.organization.id);
  });

  /** A queued job (events 0 and 1 written), created through the API. */
  async function queuedJob(): Promise<string> {
    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, key);
    expect(created.status).toBe(202);
    return created.body.jobId as string;
  }

  /** Appends `count` events, one transaction each, as a worker does; `wake` as a worker in this process would. */
  async function append(jobId: string, count: number, wake = false): Promise<void> {
    for (let i = 0; i < count; i++) {
      await store().transaction((manager) => appendJobEvent(manager, jobId, 'page.visited', { i }));
      if (wake) api.feed.wake(jobId);
    }
  }

  const finish = (jobId: string) => store().getRepository(Job).update({ id: jobId }, { status: 'passed' });

  /** An NDJSON follower: the indexes it has seen so far, and `done` (all of them once the stream ends cleanly). */
  async function follow(jobId: string, query = '', auth = key) {
    const controller = new AbortController();
    const response = await fetch(`${api.base}/api/jobs/${jobId}/events${query}`, { headers: { authorization: `Bearer ${auth}` }, signal: controller.signal });
    const seen: number[] = [];
    const read = async (): Promise<number[]> => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return seen;
        buffer += decoder.decode(value, { stream: true });
        for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
          seen.push((JSON.parse(buffer.slice(0, newline)) as { index: number }).index);
          buffer = buffer.slice(newline + 1);
        }
      }
    };
    return { status: response.status, seen, done: response.ok ? read() : Promise.resolve(seen), abort: () => controller.abort() };
  }

  it('hands many followers every event after their index, in order, exactly once, and ends every stream when the job finishes', async () => {
    const jobId = await queuedJob();
    const afters = ['', '?after=0', '?after=1'];
    const early = await Promise.all(range(0, 45).map((i) => follow(jobId, afters[i % 3])));
    await append(jobId, 4); // while they subscribe
    await until(() => api.feed.size().followers === 45);
    await append(jobId, 4);
    await append(jobId, 4, true);
    const late = await Promise.all(range(0, 15).map((i) => follow(jobId, `?after=${i % 5}`)));
    await append(jobId, 3);
    await finish(jobId);

    const total = 2 + 15;
    const everyone = [...early.map((f, i) => ({ f, after: i % 3 === 0 ? -1 : (i % 3) - 1 })), ...late.map((f, i) => ({ f, after: i % 5 }))];
    for (const { f, after } of everyone) {
      expect(f.status).toBe(200);
      expect(await f.done).toEqual(range(after + 1, total));
    }
    await until(() => api.feed.size().jobs === 0);
  });

  it('answers 404 to another organization before streaming, as for an unknown job', async () => {
    const jobId = await queuedJob();
    const theirs = await follow(jobId, '', otherKey);
    expect(theirs.status).toBe(404);
    expect(api.feed.size().followers).toBe(0);
  });

  it('removes a follower that disconnects, and stops polling the job when the last one has gone', async () => {
    const jobId = await queuedJob();
    const [leaving, staying] = [await follow(jobId), await follow(jobId)];
    await until(() => api.feed.size().followers === 2);
    leaving.abort();
    await expect(leaving.done).rejects.toThrow();
    await until(() => api.feed.size().followers === 1);
    await append(jobId, 2);
    await until(() => staying.seen.length === 4);
    staying.abort();
    await expect(staying.done).rejects.toThrow();
    await until(() => api.feed.size().jobs === 0);
    expect(staying.seen).toEqual([0, 1, 2, 3]);
  });

  it('cuts a job’s streams when reading it fails, keeps serving, and a reconnect with ?after misses nothing', async () => {
    const broken = await queuedJob();
    const healthy = await queuedJob();
    const cut = await follow(broken);
    const other = await follow(healthy);
    await until(() => api.feed.size().followers === 2);
    failing.add(broken);
    await append(broken, 1);
    await expect(cut.done).rejects.toThrow();
    expect(api.feed.size()).toEqual({ jobs: 1, followers: 1 });
    expect((await callApi(api.base, 'GET', `/api/jobs/${broken}`, undefined, key)).status).toBe(200);

    failing.delete(broken);
    const resumed = await follow(broken, `?after=${String(cut.seen.at(-1))}`);
    await append(broken, 1);
    await finish(broken);
    expect([...cut.seen, ...(await resumed.done)]).toEqual([0, 1, 2, 3]);
    await append(healthy, 1);
    await finish(healthy);
    expect(await other.done).toEqual([0, 1, 2]);
  });

  it('reads the store once per tick for the job, whether one follower or two hundred follow it', async () => {
    const jobId = await queuedJob();
    const readsPerTick = async (followers: number): Promise<number[]> => {
      let reads = 0;
      const due: (() => void)[] = [];
      const timers: FeedTimers = { set: (callback) => due.push(callback), clear: () => {} };
      const feed = createEventFeed({
        read: (id, after) => {
          reads++;
          return readJobProgress(store(), id, after);
        },
        logger: silentLogger(),
        timers,
      });
      const received = range(0, followers).map(() => [] as number[]);
      const ends: FeedEnd[] = [];
      for (const seen of received) feed.follow(jobId, 1, { events: (events) => void seen.push(...events.map((e) => e.seq)), end: (reason) => void ends.push(reason) });
      const counts: number[] = [];
      for (let tick = 0; tick < 3; tick++) {
        await append(jobId, 1);
        const before = reads;
        due.splice(0).forEach((callback) => callback());
        await until(() => due.length > 0);
        counts.push(reads - before);
      }
      feed.close();
      expect(received).toEqual(range(0, followers).map(() => [2, 3, 4]));
      expect(ends).toEqual(range(0, followers).map(() => 'closed'));
      await store().query('DELETE FROM job_events WHERE job_id = ? AND seq > 1', [jobId]);
      return counts;
    };
    expect(await readsPerTick(1)).toEqual([1, 1, 1]);
    expect(await readsPerTick(200)).toEqual([1, 1, 1]);
  });
});
