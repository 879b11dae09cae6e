import { z } from 'zod';
import type { RunStarter } from '../jobs/job-service.js';
import type { Queue } from '../queue/index.js';
import { stageWorkflow } from './stage-workflow.js';

/** The queue job that runs one QA job in a browser. */
export const QA_RUN_JOB = 'qa-run';

export const qaRunPayload = z.object({ jobId: z.string().uuid() });

/**
 * Starts runnable jobs' workflows for the job service: the queue job is written in the job's own transaction (one
 * commit), its id is the job's workflow id, and workers are told after the commit.
 */
export function qaRunStarter(queue: Queue): RunStarter {
  return {
    stage: async (jobId) => stageWorkflow(queue, { name: QA_RUN_JOB, payload: qaRunPayload }, { jobId }),
  };
}
