import { verdictEvent } from '../../core/job-lifecycle.js';
import type { Job } from '../../store/entities/job.entity.js';
import type { StepOutcome } from '../checkpoints.js';
import type { RunRecorder } from '../run-recorder.js';
import type { VisitResult } from './types.js';

/** A run taken over after its `start` (a worker died, a retry): says so in the history, with the attempt number. */
export async function recordResume(recorder: RunRecorder): Promise<void> {
  await recorder.commit((writes) => writes.event('job.resumed', { attempt: recorder.attempt }));
}

/** The `start` step: the job is running, from this attempt on. */
export function startStep(job: Job, attempt: number): StepOutcome<object> {
  return {
    result: {},
    async record(writes) {
      await writes.setStatus('running', { startedAt: new Date() });
      await writes.event('job.started', { baseUrl: job.baseUrl, attempt });
    },
  };
}

/** The `finish` step: the verdict, with what the run found. */
export function finishStep(verdict: 'passed' | 'failed', run: VisitResult): StepOutcome<object> {
  return {
    result: {},
    async record(writes) {
      await writes.setStatus(verdict, { finishedAt: new Date() });
      await writes.event(verdictEvent(verdict), { findings: run.findings, errors: run.errors });
    },
  };
}
