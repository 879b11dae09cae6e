import type { DataSource } from 'typeorm';
import { JobCheckpoint } from '../store/entities/job-checkpoint.entity.js';
import type { RunRecorder, RunWrites } from './run-recorder.js';

/** What a step did outside the database, and how to record it: `record` runs in the step's one commit. */
export interface StepOutcome<Result extends object> {
  result: Result;
  record(writes: RunWrites): Promise<void>;
}

/**
 * Runs the named steps of one job's workflow durably. A step that completed before (this run or a run that died)
 * is skipped and its stored result returned; otherwise `work` runs, and its records and the checkpoint are written
 * in one commit of the run's recorder. A worker that dies mid-step leaves nothing of that step behind, and two
 * attempts racing on the same step cannot both commit: the recorder fences out the older one, and the checkpoint's
 * `(job_id, step)` key refuses a second. `stepDone` hears how long each step that did its work took (work and commit).
 *
 * The job's checkpoints are read once, on the first question: the recorder's attempt took its fencing token before,
 * so no other attempt can add one after (an older one is fenced out of every commit), and this one's own are
 * remembered as it commits them. A replay asked four times, one query each.
 */
export function createStepRunner(dataSource: DataSource, recorder: RunRecorder, stepDone: (step: string, seconds: number) => void = () => undefined) {
  const jobId = recorder.jobId;
  let checkpoints: Promise<Map<string, object>> | undefined;
  const read = () =>
    (checkpoints ??= dataSource
      .getRepository(JobCheckpoint)
      .find({ select: { step: true, result: true }, where: { jobId } })
      .then((rows) => new Map(rows.map((row) => [row.step, row.result]))));
  return {
    async completed(step: string): Promise<object | undefined> {
      try {
        return (await read()).get(step);
      } catch (error) {
        checkpoints = undefined; // read again next time
        throw error;
      }
    },

    async run<Result extends object>(step: string, work: () => Promise<StepOutcome<Result>>): Promise<Result> {
      const done = await this.completed(step);
      if (done !== undefined) return done as Result;
      const began = performance.now();
      const outcome = await work();
      await recorder.commit(async (writes) => {
        await outcome.record(writes);
        await writes.checkpoint(step, outcome.result);
      });
      // As the checkpoint's row has it (scrubbed), should this attempt ask again.
      (await read()).set(step, recorder.scrubber.value(outcome.result));
      stepDone(step, (performance.now() - began) / 1000);
      return outcome.result;
    },
  };
}
