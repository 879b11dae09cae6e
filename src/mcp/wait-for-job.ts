import { isAppError } from '../core/errors.js';
import { jobReport, type JobReport } from './job-report.js';
import type { JobEvent, QaPort } from './port.js';

/**
 * MCP clients give up on a request after about 60 s (the SDK's default request timeout), so a wait answers well
 * before that: with the verdict when the job finished, else with where to resume.
 */
export const MAX_WAIT_SECONDS = 50;
export const DEFAULT_WAIT_SECONDS = 45;

export interface WaitRequest {
  jobId: string;
  /** The last event index already seen (a previous answer's `after`); from the first event when absent. */
  after?: number;
  waitSeconds: number;
}

export type WaitOutcome =
  | (JobReport & { finished: true; after: number | null })
  /** Still running when the wait ended: call again with `after`. */
  | { jobId: string; status: JobReport['status']; finished: false; after: number | null; steps: JobReport['steps']; links: JobReport['links'] };

/**
 * Follows a job's events until it is finished or `waitSeconds` pass (or `signal`, the client's cancel, aborts, or
 * the stream is cut), calling `progress` for each event; then reads the job once. `after` in the outcome is the last event index seen:
 * the cursor of the next call.
 */
export async function waitForJob(
  port: QaPort,
  request: WaitRequest,
  progress: (event: JobEvent) => Promise<void>,
  signal: AbortSignal,
): Promise<WaitOutcome> {
  const stop = AbortSignal.any([signal, AbortSignal.timeout(request.waitSeconds * 1000)]);
  let last = request.after ?? null;
  try {
    for await (const event of port.events(request.jobId, request.after ?? -1, stop)) {
      last = event.index;
      await progress(event);
    }
  } catch (error) {
    // A stream cut short (the service restarting, a dropped connection) ends this wait early, not the agent's work:
    // it answers where to resume. The caller's faults (an unknown job: 404) are the answer itself.
    if (!isAppError(error) || error.kind !== 'operational') throw error;
  }
  const report = jobReport(await port.getJob(request.jobId), port.publicBase);
  if (report.finished) return { ...report, finished: true, after: last };
  return { jobId: report.jobId, status: report.status, finished: false, after: last, steps: report.steps, links: report.links };
}
