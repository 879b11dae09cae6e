import type { EntityManager } from 'typeorm';
import type { JobEventType } from '../core/job-lifecycle.js';
import { JobEvent } from '../store/entities/job-event.entity.js';

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
  const event = { jobId, seq: await nextEventIndex(manager, jobId), type, at, data };
  await manager.insert(JobEvent, event);
  return Object.assign(new JobEvent(), event);
}

/** The index the job's next event takes. Read it only while holding the job's row (see `appendJobEvent`). */
export async function nextEventIndex(manager: EntityManager, jobId: string): Promise<number> {
  const [{ next }] = (await manager.query(`SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM job_events WHERE job_id = ?`, [jobId])) as {
    next: number | string;
  }[];
  return Number(next);
}
