import type { EntityManager } from 'typeorm';
import { JobEvent } from '../store/entities/job-event.entity.js';

/** Event kinds written so far; the workflow adds its own (step.started, step.passed, …). */
export type JobEventType = 'job.created' | 'job.review_required' | 'job.queued' | 'job.answered' | 'job.errored';

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
  const [{ next }] = (await manager.query(
    `SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM job_events WHERE job_id = ?`,
    [jobId],
  )) as { next: number | string }[];
  const event = { jobId, seq: Number(next), type, at, data };
  await manager.insert(JobEvent, event);
  return Object.assign(new JobEvent(), event);
}
