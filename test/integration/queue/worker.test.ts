import { afterEach, expect, it } from '@jest/globals';
import { z } from 'zod';
import { operationalError, userError } from '../../../src/core/errors.js';
import { createNotificationChannel, createQueue, createWorker, defineQueueJob, enqueue, type Queue, type Worker } from '../../../src/queue/index.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';

// Agenda arms a liveness timer of lockLifetime/2 per run and does not clear it when the run ends; a short
// lock lifetime keeps those timers from holding the test process open for long after the last test.
const settings = { pollIntervalMs: 50, lockLifetimeMs: 4_000, concurrency: 4 };
const fastRetry = { baseDelayMs: 20, factor: 2, maxDelayMs: 100, maxRetries: 2, jitter: 0 };

/** A promise with its resolver, for a handler to say "I am running now". */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

forEachDialect('worker', (dialect) => {
  const store = useTestStore(dialect);
  let queue: Queue;
  let worker: Worker | undefined;

  afterEach(async () => {
    await worker?.stop();
    await queue?.backend.disconnect();
    worker = undefined;
  });

  function start(definitions: Parameters<typeof createWorker>[1], graceMs = 5_000, lockLifetimeMs = settings.lockLifetimeMs): Worker {
    queue = createQueue(store(), { ...settings, lockLifetimeMs }, createNotificationChannel(undefined));
    worker = createWorker(queue, definitions, silentLogger(), graceMs);
    return worker;
  }

  // A stopped worker has disconnected its backend; connect() is idempotent and reconnects after a disconnect.
  const jobRow = async (id: unknown) => {
    await queue.backend.connect();
    return queue.backend.repository.getJobById(String(id));
  };

  it('runs a typed job with its parsed payload', async () => {
    const seen: unknown[] = [];
    const greet = defineQueueJob({
      name: 'greet',
      payload: z.object({ who: z.string().min(1), times: z.coerce.number().int().default(1) }),
      handle: async (payload, context) => {
        seen.push({ payload, attempt: context.attempt });
      },
    });
    await start([greet]).start();
    const job = await enqueue(queue.agenda, greet, { who: 'ada' });
    await until(async () => (await jobRow(job.attrs._id))?.lastFinishedAt);
    expect(seen).toEqual([{ payload: { who: 'ada', times: 1 }, attempt: 1 }]);
  });

  it('refuses to enqueue a payload that fails its schema, naming the field', async () => {
    const typed = defineQueueJob({ name: 'typed', payload: z.object({ id: z.string() }), handle: async () => undefined });
    start([typed]);
    await expect(enqueue(queue.agenda, typed, { id: 42 } as unknown as { id: string })).rejects.toMatchObject({
      code: 'queue.invalid_payload',
      kind: 'user',
      message: expect.stringContaining('id'),
    });
    await queue.backend.connect();
    expect(await queue.backend.repository.getDistinctJobNames()).toEqual([]);
  });

  it('fails a stored job whose payload no longer fits, without retrying, and keeps working', async () => {
    const ran: string[] = [];
    const typed = defineQueueJob({
      name: 'typed',
      payload: z.object({ id: z.string() }),
      retry: fastRetry,
      handle: async ({ id }) => {
        ran.push(id);
      },
    });
    await start([typed]).start();
    const stale = await queue.agenda.now('typed', { legacyId: 7 });
    const good = await enqueue(queue.agenda, typed, { id: 'fine' });
    const failed = await until(async () => (await jobRow(stale.attrs._id))?.failedAt && jobRow(stale.attrs._id));
    expect(failed!.failReason).toMatch(/^Invalid payload for job "typed": .*id/);
    expect(failed!.failCount).toBe(1);
    expect(failed!.nextRunAt).toBeNull();
    await until(async () => (await jobRow(good.attrs._id))?.lastFinishedAt);
    expect(ran).toEqual(['fine']);
  });

  it('retries operational failures with backoff until they succeed or run out, and never retries user errors', async () => {
    const attempts: Record<string, number[]> = { flaky: [], broken: [], rejected: [] };
    const work = defineQueueJob({
      name: 'work',
      payload: z.object({ mode: z.enum(['flaky', 'broken', 'rejected']) }),
      retry: fastRetry,
      handle: async ({ mode }, { attempt }) => {
        attempts[mode]!.push(attempt);
        if (mode === 'rejected') throw userError('work.rejected', 'the input is wrong');
        if (mode === 'broken' || attempt < 2) throw operationalError('work.unavailable', 'upstream unavailable');
      },
    });
    await start([work]).start();
    const flaky = await enqueue(queue.agenda, work, { mode: 'flaky' });
    const broken = await enqueue(queue.agenda, work, { mode: 'broken' });
    const rejected = await enqueue(queue.agenda, work, { mode: 'rejected' });
    await until(async () => (await jobRow(flaky.attrs._id))?.lastFinishedAt && attempts.flaky.length === 2);
    await until(async () => attempts.broken.length === 3 && (await jobRow(broken.attrs._id))?.nextRunAt === null);
    await until(async () => (await jobRow(rejected.attrs._id))?.failedAt);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attempts).toEqual({ flaky: [1, 2], broken: [1, 2, 3], rejected: [1] });
    expect((await jobRow(broken.attrs._id))!.failReason).toBe('upstream unavailable');
  });

  it('lets a running job finish when it stops within the grace period', async () => {
    let finished = false;
    const started = signal();
    const slow = defineQueueJob({
      name: 'slow',
      payload: z.object({}),
      handle: async () => {
        started.fire();
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished = true;
      },
    });
    const running = start([slow], 5_000);
    await running.start();
    const job = await enqueue(queue.agenda, slow, {});
    await started.promise;
    await running.stop();
    worker = undefined;
    expect(finished).toBe(true);
    const row = await jobRow(job.attrs._id);
    expect(row!.lastFinishedAt).toBeInstanceOf(Date);
    expect(row!.lockedAt).toBeUndefined();
  });

  it('fails a job claimed just as the worker stops, so it runs again instead of counting as done', async () => {
    const ran: string[] = [];
    const quick = defineQueueJob({ name: 'quick', payload: z.object({ n: z.number() }), handle: async ({ n }) => void ran.push(String(n)) });
    const running = start([quick], 1_000);
    await running.start();
    const jobs = await Promise.all(Array.from({ length: 20 }, (_, n) => enqueue(queue.agenda, quick, { n })));
    await running.stop();
    worker = undefined;
    for (const job of jobs) {
      const row = (await jobRow(job.attrs._id))!;
      expect(row.lockedAt).toBeUndefined();
      const done = ran.includes(String((job.attrs.data as { n: number }).n));
      // Every job either ran, or is still to run: none is marked finished without having run.
      if (!done) expect(row.failedAt === undefined || row.failReason === 'The worker was shutting down; the job will be retried').toBe(true);
      if (!done) expect(row.nextRunAt).toBeInstanceOf(Date);
    }
  });

  it('past the grace period, aborts the run and records it as a failure to retry, not a success', async () => {
    let aborted = false;
    const started = signal();
    const stuck = defineQueueJob({
      name: 'stuck',
      payload: z.object({}),
      handle: (_payload, { signal: abort }) =>
        new Promise<void>((resolve) => {
          started.fire();
          abort.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    });
    const running = start([stuck], 100);
    await running.start();
    const job = await enqueue(queue.agenda, stuck, {});
    await started.promise;
    await running.stop();
    worker = undefined;
    expect(aborted).toBe(true);
    const row = await jobRow(job.attrs._id);
    expect(row!.lockedAt).toBeUndefined();
    // Agenda stamps lastFinishedAt on failed runs too; a failure is failedAt at or after it.
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(row!.failedAt!.getTime()).toBeGreaterThanOrEqual(row!.lastFinishedAt!.getTime());
    expect(row!.failReason).toMatch(/shut down before the run finished/);
    expect(row!.failCount).toBe(1);
    expect(row!.nextRunAt).toBeInstanceOf(Date);
  });

  it('releases a run that ignores the abort, so another worker can take it at once', async () => {
    const started = signal();
    const deaf = defineQueueJob({
      name: 'deaf',
      payload: z.object({}),
      handle: () => {
        started.fire();
        return new Promise<void>(() => undefined);
      },
    });
    // A short lock lifetime: Agenda keeps a timer per run until then, and this run never ends by itself.
    const running = start([deaf], 50, 1_000);
    await running.start();
    const job = await enqueue(queue.agenda, deaf, {});
    await started.promise;
    await running.stop();
    worker = undefined;
    const row = await jobRow(job.attrs._id);
    expect(row!.lockedAt).toBeUndefined();
    expect(row!.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const next = await queue.backend.repository.getNextJobToRun('deaf', new Date(), new Date(0), undefined, undefined);
    expect(next?._id).toBe(job.attrs._id);
    await queue.backend.disconnect();
  });
});
