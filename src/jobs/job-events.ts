import type { EntityManager } from 'typeorm';
import { JobEvent } from '../store/entities/job-event.entity.js';

/**
 * Event kinds, in the order a job's history usually has them. The job's own life: created, review_required or
 * queued, answered (on the parent), started, resumed (a worker took over a run another left), then passed, failed or
 * errored. A model-backed planner's requests are `planner.called` (tokens and time, right after created). What the run saw in between: page.visited, artifact.created, finding.recorded, run.retrying.
 */
export type JobEventType =
  | 'job.created'
  | 'planner.called'
  | 'job.review_required'
  | 'job.queued'
  | 'job.answered'
  | 'job.started'
  | 'job.resumed'
  | 'page.visited'
  | 'step.started'
  | 'step.passed'
  | 'step.failed'
  | 'check.compiled'
  | 'artifact.created'
  | 'finding.recorded'
  | 'run.retrying'
  | 'job.passed'
  | 'job.failed'
  | 'job.errored'
  | 'job.cancelled';

/**
 * Appends an event at the job's next index. Inside the caller's transaction; the `(job_id, seq)` key makes a
 * replayed append fail instead of writing the event twice.
 */
export async function appendJobEvent(
  manager: EntityManager,
  jobId: string,
  type: JobEventType,
  data: Record<string, unknown>,
  at: Date = new Date(),
): Promise<JobEvent> {
  // Writers of one job's history (the workflow, a cancel, an answer) take turns on the job's row, so two never
  // pick the same next index. SQLite runs one write transaction at a time anyway and has no FOR UPDATE.
  if (manager.connection.options.type !== 'better-sqlite3') {
    await manager.query(`SELECT id FROM jobs WHERE id = ? FOR UPDATE`, [jobId]);
  }
  const [{ next }] = (await manager.query(
    `SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM job_events WHERE job_id = ?`,
    [jobId],
  )) as { next: number | string }[];
  const event = { jobId, seq: Number(next), type, at, data };
  await manager.insert(JobEvent, event);
  return Object.assign(new JobEvent(), event);
}
