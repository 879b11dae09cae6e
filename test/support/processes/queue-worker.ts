/**
 * A worker process for multi-process queue tests, built from the same parts as `qa worker` (store, queue,
 * worker) with test job kinds. Configured by environment:
 *   CHILD_DATABASE_URL  MySQL URL of the test database (migrated by the parent)
 *   CHILD_MODE          "record": each `record-run` job inserts a row in test_job_runs;
 *                       "hang": each run inserts a "started" row, says so on stdout, and never finishes
 *   CHILD_LOCK_MS, CHILD_POLL_MS, CHILD_CONCURRENCY, CHILD_REDIS_URL (optional)
 * It writes one JSON object per line to stdout: {"event":"ready"} and {"event":"started","jobId":…}.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { openStore } from '../../../src/store/open-store.js';
import { createNotificationChannel, createQueue, createWorker, defineQueueJob } from '../../../src/queue/index.js';
import { createLogger } from '../../../src/logger.js';

const env = z
  .object({
    CHILD_DATABASE_URL: z.string(),
    CHILD_MODE: z.enum(['record', 'hang']),
    CHILD_LOCK_MS: z.coerce.number().int().positive().default(60_000),
    CHILD_POLL_MS: z.coerce.number().int().positive().default(100),
    CHILD_CONCURRENCY: z.coerce.number().int().positive().default(4),
    CHILD_REDIS_URL: z.string().optional(),
  })
  .parse(process.env);

const say = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);
const logger = createLogger({ level: 'silent', format: 'json' });
const dataSource = await openStore({ database: { kind: 'mysql', url: env.CHILD_DATABASE_URL } }, logger);
const queue = createQueue(
  dataSource,
  { pollIntervalMs: env.CHILD_POLL_MS, lockLifetimeMs: env.CHILD_LOCK_MS, concurrency: env.CHILD_CONCURRENCY },
  await createNotificationChannel(env.CHILD_REDIS_URL),
);

const recordRun = defineQueueJob({
  name: 'record-run',
  payload: z.object({ n: z.number() }),
  handle: async (_payload, { jobId }) => {
    if (env.CHILD_MODE === 'hang') {
      await dataSource.query('INSERT INTO test_job_runs (job_id, worker, phase) VALUES (?, ?, ?)', [jobId, process.pid, 'started']);
      say({ event: 'started', jobId });
      await new Promise(() => undefined);
    }
    await dataSource.query('INSERT INTO test_job_runs (job_id, worker, phase) VALUES (?, ?, ?)', [jobId, process.pid, 'done']);
  },
});

const worker = createWorker(queue, [recordRun], logger, 5_000);
await worker.start();
say({ event: 'ready', pid: process.pid });

process.once('SIGTERM', () => {
  void worker.stop().then(async () => {
    await dataSource.destroy();
    process.exit(0);
  });
});
