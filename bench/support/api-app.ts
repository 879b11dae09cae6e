/**
 * The two HTTP servers `bench/api.bench.ts` measures: the service's app wired as `startAll` in src/main.ts wires it,
 * minus the worker (runnable jobs are only enqueued), and a bare Express app as the peer.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/api/app.js';
import { createFileArtifactStorage } from '../../src/artifacts/file-storage.js';
import { startHttpServer, type HttpServer } from '../../src/api/server.js';
import type { Config } from '../../src/config.js';
import { createEventFeed, type EventFeed, type ReadProgress } from '../../src/jobs/event-feed.js';
import { createCheckService } from '../../src/jobs/check-service.js';
import { createJobService } from '../../src/jobs/job-service.js';
import { createScheduleService } from '../../src/jobs/schedule-service.js';
import { readJobProgress } from '../../src/jobs/job-progress.js';
import type { Logger } from '../../src/logger.js';
import { createRulePlanner } from '../../src/planner/rule-planner.js';
import { createNotificationChannel, createQueue, type Queue } from '../../src/queue/index.js';
import { createRepositoryService } from '../../src/repos/repository-service.js';
import { onboardingStarter } from '../../src/workflows/onboarding.js';
import { createWriteBatch } from '../../src/store/write-batch.js';
import { qaRunStarter } from '../../src/workflows/qa-run.js';
import { createScheduleRepeats } from '../../src/workflows/schedule-fire.js';

export interface BenchApi {
  base: string;
  feed: EventFeed;
  queue: Queue;
  /** Reads the event feed has made so far. */
  feedReads(): number;
  close(): Promise<void>;
}

/** The real app on a random loopback port. Nothing runs the queue: no worker is started. */
export async function startServiceApi(config: Config, logger: Logger, dataSource: DataSource): Promise<BenchApi> {
  const queue = createQueue(
    dataSource,
    { pollIntervalMs: config.queue.pollIntervalMs, lockLifetimeMs: config.queue.lockLifetimeMs, concurrency: config.worker.concurrency },
    createNotificationChannel(config.queue.redisUrl),
  );
  const writes = createWriteBatch(dataSource);
  const jobs = createJobService({
    writes,
    dataSource,
    planner: createRulePlanner(),
    runs: qaRunStarter(queue),
    artifacts: createFileArtifactStorage(config.artifacts.dir), // only read (downloads); no worker writes here
  });
  const repositories = createRepositoryService({
    dataSource,
    config: config.repositories,
    readSecret: () => undefined,
    onboarding: onboardingStarter(queue),
  });
  let reads = 0;
  const read: ReadProgress = (jobId, after) => {
    reads++;
    return readJobProgress(dataSource, jobId, after);
  };
  const feed = createEventFeed({ read, logger });
  const server = await startHttpServer({ ...config.http, port: 0 }, createApp({
    dataSource,
    jobs,
    feed,
    repositories,
    checks: createCheckService(dataSource),
    schedules: createScheduleService({ dataSource, repeats: createScheduleRepeats(queue.agenda) }),
    logger,
  }));
  return {
    base: `http://${config.http.host}:${server.port}`,
    feed,
    queue,
    feedReads: () => reads,
    async close() {
      feed.close();
      await server.close();
      await queue.backend.disconnect();
      await writes.close();
    },
  };
}

/** The peer: Express with its JSON body parser, a POST answering 202 and a GET answering a small JSON object. */
export async function startBareExpress(host: string): Promise<{ base: string; server: HttpServer }> {
  const app = express();
  app.disable('x-powered-by');
  app.post('/things', express.json({ limit: '256kb' }), (req, res) => {
    res.status(202).json({ id: randomUUID(), received: Object.keys(req.body as object).length });
  });
  app.get('/things/:id', (req, res) => {
    res.json({ thing: { id: req.params.id, status: 'queued', createdAt: new Date() }, events: [] });
  });
  const server = await startHttpServer({ host, port: 0 }, app);
  return { base: `http://${host}:${server.port}`, server };
}
