/**
 * The worker `bench/runs.bench.ts` measures, wired as `startQueueWorker` in src/main.ts wires it (one browser pool
 * for the process, file artifact storage, the workflows), with the job service `startAll` builds beside it on the
 * same queue: jobs created here wake this worker in-process at once, as in `qa start`.
 */
import type { DataSource } from 'typeorm';
import { createFileArtifactStorage } from '../../src/artifacts/file-storage.js';
import { createBrowserPool } from '../../src/browser/browser-pool.js';
import { generatePlaywrightSource } from '../../src/checks/generate-source.js';
import type { Config } from '../../src/config.js';
import { createJobService, type JobService } from '../../src/jobs/job-service.js';
import type { Logger } from '../../src/logger.js';
import { createRulePlanner } from '../../src/planner/rule-planner.js';
import { createProbeClient } from '../../src/probes/probe-client.js';
import { createNotificationChannel, createQueue, createWorker, type Queue } from '../../src/queue/index.js';
import { createWriteBatch } from '../../src/store/write-batch.js';
import { qaRunStarter } from '../../src/workflows/run-starter.js';
import { workflowJobs } from '../../src/workflows/registry.js';

export interface BenchWorker {
  queue: Queue;
  jobs: JobService;
  stop(): Promise<void>;
}

export async function startBenchWorker(
  config: Config,
  logger: Logger,
  dataSource: DataSource,
  options: { readSecret: (name: string) => string | undefined; eventsWritten: (jobId: string) => void },
): Promise<BenchWorker> {
  const queue = createQueue(
    dataSource,
    { pollIntervalMs: config.queue.pollIntervalMs, lockLifetimeMs: config.queue.lockLifetimeMs, concurrency: config.worker.concurrency },
    createNotificationChannel(config.queue.redisUrl),
  );
  const browsers = createBrowserPool(config.browser, logger.child({ component: 'browser' }));
  const artifacts = createFileArtifactStorage(config.artifacts.dir);
  const workflows = workflowJobs({
    dataSource,
    browsers,
    artifacts,
    heartbeatMs: Math.max(500, Math.floor(config.queue.lockLifetimeMs / 3)),
    eventsWritten: options.eventsWritten,
    probes: createProbeClient({ allowCidrs: config.probes.allowCidrs }),
    readSecret: options.readSecret,
    stepTimeoutMs: config.browser.stepTimeoutMs,
    timeLimitMs: config.browser.runTimeLimitMs,
    generateSource: (input) => generatePlaywrightSource({ ...input, stepTimeoutMs: config.browser.stepTimeoutMs }),
  });
  const worker = createWorker(queue, workflows, logger, config.worker.shutdownGraceMs);
  await worker.start();
  const writes = createWriteBatch(dataSource);
  const jobs = createJobService({ dataSource, planner: createRulePlanner(), runs: qaRunStarter(queue), artifacts, writes });
  return {
    queue,
    jobs,
    async stop() {
      await worker.stop();
      await browsers.close();
      await writes.close();
    },
  };
}
