import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { NotificationChannel } from 'agenda';
import { createNotificationChannel, createQueue, type Queue } from '../../../src/queue/index.js';
import { useTestStore } from '../../support/dialects.js';
import { markTestStoreDirty } from '../../support/test-run-marker.js';
import { spawnTestChild, type TestChild } from '../../support/processes/spawn.js';

/** Several worker processes against one MySQL database: what the single-process tests cannot show. */
describe('queue across processes [mysql]', () => {
  const store = useTestStore('mysql');
  const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  let url: string;
  let producer: Queue | undefined;
  let producerChannel: NotificationChannel | undefined;
  const children: TestChild[] = [];

  beforeAll(async () => {
    const { host, port, username, password, database } = store().options as unknown as Record<string, string>;
    url = `mysql://${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@${host}:${port}/${database}`;
    // A table of the test's own: the next store of this worker starts from a database without it.
    await markTestStoreDirty(store());
    await store().query(
      'CREATE TABLE IF NOT EXISTS test_job_runs (id INT AUTO_INCREMENT PRIMARY KEY, job_id VARCHAR(36) NOT NULL, worker INT NOT NULL, phase VARCHAR(16) NOT NULL)',
    );
  });

  beforeEach(async () => {
    await store().query('DELETE FROM test_job_runs');
  });

  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => child.stop()));
    // The producer's Agenda never starts, so its stop() would not close the channel: close it here.
    await producerChannel?.disconnect();
    await producer?.backend.disconnect();
    producer = undefined;
    producerChannel = undefined;
  });

  function worker(env: Record<string, string>): TestChild {
    const child = spawnTestChild('./queue-worker.ts', { CHILD_DATABASE_URL: url, CHILD_MODE: 'record', CHILD_POLL_MS: '50', ...env });
    children.push(child);
    return child;
  }

  async function runs(): Promise<{ job_id: string; worker: number; phase: string }[]> {
    return store().query('SELECT job_id, worker, phase FROM test_job_runs ORDER BY id');
  }

  async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function producerQueue(dataSource: DataSource, withRedis: boolean): Promise<Queue> {
    producerChannel = await createNotificationChannel(withRedis ? redisUrl : undefined);
    producer = createQueue(dataSource, { pollIntervalMs: 60_000, lockLifetimeMs: 60_000, concurrency: 1 }, producerChannel);
    return producer;
  }

  it('two workers compete for the same jobs and each job runs exactly once', async () => {
    const a = worker({});
    const b = worker({});
    await Promise.all([a.waitFor((e) => e.event === 'ready'), b.waitFor((e) => e.event === 'ready')]);
    const queue = await producerQueue(store(), false);
    const count = 300;
    const ids = new Set<string>();
    for (let n = 0; n < count; n++) ids.add(String((await queue.agenda.now('record-run', { n })).attrs._id));

    await until(async () => (await runs()).length >= count, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const done = await runs();
    expect(done).toHaveLength(count);
    expect(new Set(done.map((run) => run.job_id))).toEqual(ids);
    expect(new Set(done.map((run) => run.worker)).size).toBe(2);
    const [{ unfinished }] = await store().query(
      'SELECT COUNT(*) AS unfinished FROM agenda_jobs WHERE name = ? AND (locked_at IS NOT NULL OR last_finished_at IS NULL)',
      ['record-run'],
    );
    expect(Number(unfinished)).toBe(0);
  });

  it('a worker killed while holding a lock loses the job to another after the lock lifetime, and it completes', async () => {
    const doomed = worker({ CHILD_MODE: 'hang' });
    await doomed.waitFor((e) => e.event === 'ready');
    const queue = await producerQueue(store(), false);
    const job = await queue.agenda.now('record-run', { n: 1 });
    const jobId = String(job.attrs._id);
    await doomed.waitFor((e) => e.event === 'started' && e.jobId === jobId);
    await doomed.stop('SIGKILL');
    const [held] = await store().query('SELECT locked_at FROM agenda_jobs WHERE id = ?', [jobId]);
    expect(held.locked_at).not.toBeNull();

    const rescuer = worker({ CHILD_LOCK_MS: '1500', CHILD_POLL_MS: '100' });
    await rescuer.waitFor((e) => e.event === 'ready');
    await until(async () => (await runs()).some((run) => run.phase === 'done'), 20_000);

    const history = await runs();
    expect(history.map((run) => [run.job_id, run.worker, run.phase])).toEqual([
      [jobId, doomed.process.pid, 'started'],
      [jobId, rescuer.process.pid, 'done'],
    ]);
    await until(async () => (await queue.backend.repository.getJobById(jobId))?.lastFinishedAt !== undefined, 5_000);
    const finished = (await queue.backend.repository.getJobById(jobId))!;
    expect(finished.lockedAt).toBeUndefined();
    expect(finished.failedAt).toBeUndefined();
  });

  it('with Redis, workers in other processes hear about new jobs without waiting for their poll', async () => {
    // A 60 s poll: within this test's time only a notification can make a worker look for the new jobs.
    const a = worker({ CHILD_REDIS_URL: redisUrl, CHILD_POLL_MS: '60000' });
    const b = worker({ CHILD_REDIS_URL: redisUrl, CHILD_POLL_MS: '60000' });
    await Promise.all([a.waitFor((e) => e.event === 'ready'), b.waitFor((e) => e.event === 'ready')]);
    const queue = await producerQueue(store(), true);
    await producerChannel!.connect();
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let n = 0; n < 20; n++) await queue.agenda.now('record-run', { n });
    await until(async () => (await runs()).length >= 20, 10_000);
    expect(new Set((await runs()).map((run) => run.job_id)).size).toBe(20);
    // Both workers hear every job's state from each other through Redis; neither may fall over on it.
    expect([a.process.exitCode, b.process.exitCode]).toEqual([null, null]);
  });
});
