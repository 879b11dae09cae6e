import { afterEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ErrorCode, operationalError, userError } from '../../../src/core/errors.js';
import { InProcessNotificationChannel, createQueue, createWorker, defineQueueJob, enqueue, type Queue, type Worker } from '../../../src/queue/index.js';
import { toSqlDate } from '../../../src/queue/mysql-backend/sql-dates.js';
import { readDate } from '../../../src/store/raw-values.js';
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
    queue = createQueue(store(), { ...settings, lockLifetimeMs }, new InProcessNotificationChannel());
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

  it('runs the same queue job again when its handler asks to, not before the time given, and completes when it does not', async () => {
    const runs: { id: string; at: number }[] = [];
    const poll = defineQueueJob({
      name: 'poll',
      payload: z.object({ until: z.number().int() }),
      handle: async (payload, context) => {
        runs.push({ id: context.jobId, at: Date.now() });
        return runs.length < payload.until ? { runAgainAt: new Date(Date.now() + 150) } : undefined;
      },
    });
    await start([poll]).start();
    const job = await enqueue(queue.agenda, poll, { until: 3 });
    await until(async () => runs.length === 3 && (await jobRow(job.attrs._id))?.nextRunAt === null);
    expect(new Set(runs.map((run) => run.id))).toEqual(new Set([String(job.attrs._id)]));
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(140);
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(140);
    expect((await jobRow(job.attrs._id))?.failCount ?? 0).toBe(0);
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
        if (mode === 'rejected') throw userError(ErrorCode.QueueInvalidPayload, 'the input is wrong');
        if (mode === 'broken' || attempt < 2) throw operationalError(ErrorCode.StoreUnreachable, 'upstream unavailable');
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

  it('hands back a job claimed just as the worker stops: it runs again, with no failure counted', async () => {
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
      // Every job either ran, or is still to run: none is marked finished without having run, none failed.
      expect(row.failedAt).toBeUndefined();
      expect(row.failCount ?? 0).toBe(0);
      if (!done) expect(row.nextRunAt).toBeInstanceOf(Date);
    }
  });

  it('past the grace period, stops the run and hands it back: due at once, no failure counted, as after a crash', async () => {
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
    expect(row!.failedAt).toBeUndefined();
    expect(row!.failReason).toBeUndefined();
    expect(row!.failCount ?? 0).toBe(0);
    expect(row!.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const next = await queue.backend.repository.getNextJobToRun('stuck', new Date(), new Date(0), undefined, undefined);
    expect(next?._id).toBe(job.attrs._id);
  });

  it('keeps a repeating housekeeping job as one row for every worker: run at once when new, its next run kept by later starts', async () => {
    const runs: string[] = [];
    const hourly = defineQueueJob({
      name: 'housekeeping',
      payload: z.object({}),
      repeatEveryMs: 3_600_000,
      handle: async (_payload, context) => {
        runs.push(context.jobId);
      },
    });
    const rows = async () =>
      (await store().query(`SELECT id, type, next_run_at, repeat_interval FROM agenda_jobs WHERE name = 'housekeeping'`)) as {
        id: string;
        type: string;
        next_run_at: unknown;
        repeat_interval: string;
      }[];
    const startedAt = Date.now();
    await start([hourly]).start();
    await until(async () => runs.length === 1);
    const [first] = await until(async () => {
      const found = await rows();
      // Agenda moves the next run an interval on once the run has been recorded.
      return found.length === 1 && readDate(found[0]!.next_run_at)!.getTime() > startedAt + 3_000_000 && found;
    });
    expect(first).toMatchObject({ type: 'single', repeat_interval: '3600000' });

    // A second worker process starting (or this one restarting) saves the same job again.
    const other = createWorker(createQueue(store(), settings, new InProcessNotificationChannel()), [hourly], silentLogger(), 5_000);
    await other.start();
    await new Promise((resolve) => setTimeout(resolve, 5 * settings.pollIntervalMs));
    await other.stop();

    const after = await rows();
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(first!.id);
    expect(readDate(after[0]!.next_run_at)).toEqual(readDate(first!.next_run_at));
    expect(runs).toEqual([first!.id]);
  });

  describe('a repeating job run while another worker starts (and saves the same job)', () => {
    const intervalMs = 60_000;
    /** Well inside the lock lifetime (4 s): a run left locked would be released only when its lock expires. */
    const promptlyMs = 1_500;
    const others: Worker[] = [];
    afterEach(async () => {
      for (const other of others.splice(0)) await other.stop();
    });
    const sweepRow = async () => {
      const [row] = (await store().query(
        `SELECT id, locked_at, next_run_at, last_run_at, last_finished_at, last_modified_by FROM agenda_jobs WHERE name = 'sweep'`,
      )) as Record<string, unknown>[];
      return row && {
        id: String(row.id),
        lockedAt: readDate(row.locked_at),
        nextRunAt: readDate(row.next_run_at),
        lastRunAt: readDate(row.last_run_at),
        lastFinishedAt: readDate(row.last_finished_at),
        owner: row.last_modified_by as string | null,
      };
    };
    /** The run that began at or after `since` ended: lock released, next run one interval after it began. */
    const finishedSince = async (since: number) => {
      const row = await sweepRow();
      return row !== undefined && row.lockedAt === null && (row.lastFinishedAt?.getTime() ?? 0) >= since && row;
    };
    const otherWorker = (definition: Parameters<typeof createWorker>[1][number]) => {
      const other = createWorker(createQueue(store(), settings, new InProcessNotificationChannel()), [definition], silentLogger(), 5_000);
      others.push(other);
      return other;
    };

    it('finishes and releases the run of the worker that holds it, however the other worker saves the job meanwhile', async () => {
      const started = signal();
      const release = signal();
      const runs: string[] = [];
      const sweep = defineQueueJob({
        name: 'sweep',
        payload: z.object({}),
        repeatEveryMs: intervalMs,
        handle: async (_payload, context) => {
          runs.push(context.jobId);
          started.fire();
          await release.promise;
        },
      });
      await start([sweep]).start();
      await started.promise;
      const running = (await sweepRow())!;
      expect(running.owner).toBe(queue.owner);
      expect(running.lockedAt).toBeInstanceOf(Date);

      await otherWorker(sweep).start();
      release.fire();
      const released = Date.now();
      const done = await until(() => finishedSince(running.lastRunAt!.getTime()), promptlyMs);
      expect(Date.now() - released).toBeLessThan(promptlyMs);
      expect(done.nextRunAt!.getTime()).toBe(done.lastRunAt!.getTime() + intervalMs);
      expect(runs).toEqual([running.id]);
    });

    it('runs a due row once and releases it when a worker restarts, and when two workers start at once', async () => {
      const runs: number[] = [];
      const sweep = defineQueueJob({
        name: 'sweep',
        payload: z.object({}),
        repeatEveryMs: intervalMs,
        handle: async () => {
          runs.push(Date.now());
          // Long enough for the other worker's save of the job to land while this run holds it.
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
      });
      await start([sweep]).start();
      await until(() => finishedSince(0), promptlyMs);
      await worker!.stop();
      worker = undefined;

      for (let round = 1; round <= 6; round++) {
        // The row is due, as after a stop of longer than the interval.
        await store().query(`UPDATE agenda_jobs SET next_run_at = ? WHERE name = 'sweep'`, [toSqlDate(new Date(Date.now() - 1_000))]);
        const before = runs.length;
        const since = Date.now();
        // Odd rounds: one worker restarts. Even rounds: two start at once.
        const starting = round % 2 === 1 ? [otherWorker(sweep)] : [otherWorker(sweep), otherWorker(sweep)];
        await Promise.all(starting.map((one) => one.start()));
        const done = await until(() => finishedSince(since), promptlyMs).catch(async (error: unknown) => {
          throw new Error(`round ${round}: ${String(error)}: ${JSON.stringify(await sweepRow())}`);
        });
        expect(done.nextRunAt!.getTime()).toBe(done.lastRunAt!.getTime() + intervalMs);
        await new Promise((resolve) => setTimeout(resolve, 5 * settings.pollIntervalMs));
        expect(runs.length - before).toBe(1);
        for (const one of others.splice(0)) await one.stop();
      }
    });
  });

  it('locks no more jobs than it can run at once, however many are due', async () => {
    const concurrency = 2;
    const release = signal();
    let runningNow = 0;
    const slow = defineQueueJob({
      name: 'slow',
      payload: z.object({ n: z.number() }),
      handle: async () => {
        runningNow++;
        await release.promise;
      },
    });
    queue = createQueue(store(), { ...settings, concurrency }, new InProcessNotificationChannel());
    worker = createWorker(queue, [slow], silentLogger(), 5_000);
    await Promise.all(Array.from({ length: 10 }, (_, n) => enqueue(queue.agenda, slow, { n })));
    await worker.start();
    await until(async () => runningNow === concurrency);
    // Several poll intervals: Agenda would have locked every due job ahead by now.
    await new Promise((resolve) => setTimeout(resolve, 10 * settings.pollIntervalMs));
    const locked = await store().query(`SELECT COUNT(*) AS n FROM agenda_jobs WHERE locked_at IS NOT NULL`);
    expect(Number((locked as { n: number | string }[])[0]!.n)).toBe(concurrency);
    release.fire();
    await until(async () => {
      const left = await store().query(`SELECT COUNT(*) AS n FROM agenda_jobs WHERE last_finished_at IS NULL`);
      return Number((left as { n: number | string }[])[0]!.n) === 0;
    });
  });

  it('runs a light job at once while browser-run-like jobs fill every slot and more are due, and still locks no heavy job ahead', async () => {
    const concurrency = 2;
    const release = signal();
    let heavyNow = 0;
    let heavyMost = 0;
    const heavy = defineQueueJob({
      name: 'heavy',
      payload: z.object({ n: z.number() }),
      handle: async () => {
        heavyMost = Math.max(heavyMost, ++heavyNow);
        await release.promise;
        heavyNow--;
      },
    });
    const replies: number[] = [];
    const reply = defineQueueJob({
      name: 'reply',
      payload: z.object({ n: z.number() }),
      light: true,
      handle: async ({ n }) => {
        replies.push(n);
      },
    });
    queue = createQueue(store(), { ...settings, concurrency, lightSlots: 2 }, new InProcessNotificationChannel());
    worker = createWorker(queue, [heavy, reply], silentLogger(), 5_000);
    await Promise.all(Array.from({ length: 6 }, (_, n) => enqueue(queue.agenda, heavy, { n })));
    await worker.start();
    await until(async () => heavyNow === concurrency);
    // A backlog of heavy jobs is due and every heavy slot is taken: the light jobs still run now.
    await Promise.all(Array.from({ length: 5 }, (_, n) => enqueue(queue.agenda, reply, { n })));
    await until(async () => replies.length === 5);
    expect(heavyNow).toBe(concurrency);
    await new Promise((resolve) => setTimeout(resolve, 5 * settings.pollIntervalMs));
    const locked = await store().query(`SELECT COUNT(*) AS n FROM agenda_jobs WHERE name = 'heavy' AND locked_at IS NOT NULL`);
    expect(Number((locked as { n: number | string }[])[0]!.n)).toBe(concurrency);
    release.fire();
    await until(async () => {
      const left = await store().query(`SELECT COUNT(*) AS n FROM agenda_jobs WHERE last_finished_at IS NULL`);
      return Number((left as { n: number | string }[])[0]!.n) === 0;
    });
    expect(heavyMost).toBe(concurrency);
  });

  it('renews a running job\'s lock for as long as it runs, and stops a run whose lock another worker took over', async () => {
    const lockLifetimeMs = 1_000;
    const started = signal();
    let abortedWith: unknown;
    const long = defineQueueJob({
      name: 'long',
      payload: z.object({}),
      handle: (_payload, { signal: abort }) =>
        new Promise<void>((resolve) => {
          started.fire();
          abort.addEventListener('abort', () => {
            abortedWith = abort.reason;
            resolve();
          });
        }),
    });
    const running = start([long], 5_000, lockLifetimeMs);
    await running.start();
    const job = await enqueue(queue.agenda, long, {});
    await started.promise;
    // Three lock lifetimes without a touch() from the handler: the lock must still be held and fresh.
    await new Promise((resolve) => setTimeout(resolve, 3 * lockLifetimeMs));
    const held = (await jobRow(job.attrs._id))!;
    expect(held.lockedAt!.getTime()).toBeGreaterThan(Date.now() - lockLifetimeMs);
    expect(abortedWith).toBeUndefined();
    // Another worker takes the job over, as it would after a stall (a lock deadline ahead of now makes the live lock
    // look expired to it): the next renewal finds the lock gone.
    const other = createQueue(store(), settings, new InProcessNotificationChannel());
    await other.backend.connect();
    const claimed = await other.backend.repository.getNextJobToRun('long', new Date(), new Date(Date.now() + 60_000), undefined, { lastModifiedBy: 'other-worker' });
    await other.backend.disconnect();
    expect(claimed?._id).toBe(job.attrs._id);
    await until(async () => abortedWith !== undefined, 5_000);
    expect(String(abortedWith)).toMatch(/lock lost/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The stopped run saved nothing over the other worker's lock: neither a failure nor an unlock.
    const after = (await jobRow(job.attrs._id))!;
    expect(after.lastModifiedBy).toBe('other-worker');
    expect(after.lockedAt).toBeInstanceOf(Date);
    expect(after.failCount ?? 0).toBe(0);
    expect(after.failedAt).toBeUndefined();
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
