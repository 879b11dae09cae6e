import type { DataSource, EntityManager } from 'typeorm';
import { JobCheckpoint } from '../store/entities/job-checkpoint.entity.js';

/** What a step did outside the database, and how to record it: `record` runs in the step's one transaction. */
export interface StepOutcome<Result extends object> {
  result: Result;
  record(manager: EntityManager): Promise<void>;
}

/**
 * Runs the named steps of one job's workflow durably. A step that completed before (this run or a run that died)
 * is skipped and its stored result returned; otherwise `work` runs, and its records and the checkpoint are written
 * in one transaction. A worker that dies mid-step leaves nothing of that step behind, and two workers racing on
 * the same step (an expired lock) cannot both commit: the checkpoint's `(job_id, step)` key refuses the second.
 */
export function createStepRunner(dataSource: DataSource, jobId: string, afterCommit: () => void = () => undefined) {
  return {
    async completed(step: string): Promise<object | undefined> {
      const checkpoint = await dataSource.getRepository(JobCheckpoint).findOneBy({ jobId, step });
      return checkpoint?.result;
    },

    async run<Result extends object>(step: string, work: () => Promise<StepOutcome<Result>>): Promise<Result> {
      const done = await this.completed(step);
      if (done !== undefined) return done as Result;
      const outcome = await work();
      await dataSource.transaction(async (manager) => {
        await outcome.record(manager);
        await manager.insert(JobCheckpoint, { jobId, step, result: outcome.result, completedAt: new Date() });
      });
      afterCommit();
      return outcome.result;
    },
  };
}
