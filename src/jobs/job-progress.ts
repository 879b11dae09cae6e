import { MoreThan, type DataSource } from 'typeorm';
import { isFinished } from '../core/job-lifecycle.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';

/** A job's events after some index, and whether more can come. */
export interface JobProgress {
  /** In index order. */
  events: JobEvent[];
  /** No more events will come: a terminal status, or review_required (which starts no workflow). */
  finished: boolean;
}

/**
 * Events after index `after`, for a reader already authorized to see the job (not organization-scoped). The
 * status is read before the events: a writer records a job's last events no later than its final status, so a
 * "finished" answer always comes with every event. A job that no longer exists is finished, with no events.
 */
export async function readJobProgress(dataSource: DataSource, jobId: string, after: number): Promise<JobProgress> {
  const job = await dataSource.getRepository(Job).findOne({ select: { id: true, status: true }, where: { id: jobId } });
  if (!job) return { events: [], finished: true };
  const events = await dataSource.getRepository(JobEvent).find({ where: { jobId, seq: MoreThan(after) }, order: { seq: 'ASC' } });
  return { events, finished: isFinished(job.status) };
}
