import { z } from 'zod';
import type { RunStarter } from '../jobs/job-service.js';
import { stageNow, type Queue } from '../queue/index.js';

/** The queue job that runs one QA job in a browser. */
export const QA_RUN_JOB = 'qa-run';

export const qaRunPayload = z.object({ jobId: z.string().uuid() });

/**
 * Starts runnable jobs' workflows for the job service: the queue job is written in the job's own transaction (one
 * commit), its id is the job's workflow id, and workers are told after the commit.
 */
export function qaRunStarter(queue: Queue): RunStarter {
  return {
    async stage(jobId) {
      const staged = stageNow(queue, { name: QA_RUN_JOB, payload: qaRunPayload }, { jobId });
      return { workflowId: staged.id, statement: staged.statement, announce: () => staged.announce() };
    },
  };
}
