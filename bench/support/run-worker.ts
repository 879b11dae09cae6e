/**
 * The worker `bench/runs.bench.ts` measures, composed as `qa worker` composes it (one browser pool for the process,
 * file artifact storage, the workflows), with the graph's job service on the same queue: jobs created here wake
 * this worker in-process at once, as in `qa start`.
 */
import type { DataSource } from 'typeorm';
import { startWorker } from '../../src/compose/index.js';
import type { Config } from '../../src/config.js';
import type { JobService } from '../../src/jobs/job-service.js';
import type { Logger } from '../../src/logger.js';
import { createRulePlanner } from '../../src/planner/rule-planner.js';
import type { Queue } from '../../src/queue/index.js';

export interface BenchWorker {
  queue: Queue;
  jobs: JobService;
  stop(): Promise<void>;
}

export async function startBenchWorker(
  config: Config,
  logger: Logger,
  dataSource: DataSource,
  options: { readSecret: (name: string) => string | undefined; eventsWritten: (jobId: string, written: readonly string[]) => void },
): Promise<BenchWorker> {
  const worker = await startWorker(config, logger, {
    dataSource,
    planner: createRulePlanner(),
    readSecret: options.readSecret,
    eventsWritten: options.eventsWritten,
  });
  return { queue: worker.services.queue, jobs: worker.services.jobs, stop: () => worker.stop() };
}
