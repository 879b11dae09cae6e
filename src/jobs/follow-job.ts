import { MoreThan, type DataSource } from 'typeorm';
import { notFoundError as notFound } from '../core/errors.js';
import { isFinished } from '../core/job-lifecycle.js';
import type { Principal } from '../core/principal.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';

/** The follow use case: a job's history as it grows (the event feed and the NDJSON stream poll it). */
export function followJobUseCase({ dataSource }: { dataSource: DataSource }) {
  return {
    /**
     * Events after index `after`, and whether the job is finished (no more events will come): a terminal status,
     * or review_required, which starts no workflow.
     */
    async eventsAfter(principal: Principal, jobId: string, after: number): Promise<{ events: JobEvent[]; finished: boolean }> {
      const { organizationId } = principal;
      const job = await dataSource.getRepository(Job).findOne({ select: { id: true, status: true }, where: { id: jobId, organizationId } });
      if (!job) throw notFound('job');
      const events = await dataSource.getRepository(JobEvent).find({ where: { jobId, seq: MoreThan(after) }, order: { seq: 'ASC' } });
      return { events, finished: isFinished(job.status) };
    },
  };
}
