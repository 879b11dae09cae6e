import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import type { Telemetry } from '../core/telemetry.js';
import type { Planner } from '../planner/planner.js';
import type { WriteBatch } from '../store/write-batch.js';
import { answerJobUseCase } from './answer-job.js';
import { cancelJobUseCase } from './cancel-job.js';
import { createJobUseCase } from './create-job.js';
import { createFindingDisputes } from './finding-disputes.js';
import { followJobUseCase } from './follow-job.js';
import { createJobRecords, type RunStarter } from './job-records.js';
import { listJobsUseCase } from './list-jobs.js';
import type { NotificationStarter } from './notification-outbox.js';
import { readJobUseCase } from './read-job.js';

export type { CancelReason } from './cancel-job.js';
export { MAX_SOURCE_KEY, type CreatedJob, type CreateJobInput, type RunStarter } from './job-records.js';
export type { JobView } from './read-job.js';
export type { JobListFilter, JobPage, JobSummaryRow, ListPosition } from './list-jobs.js';

export interface JobServiceDeps {
  dataSource: DataSource;
  planner: Planner;
  /** Starts the durable workflows of runnable jobs. */
  runs: RunStarter;
  /** Where the workflows keep artifact bytes (read for downloads). */
  artifacts: ArtifactStorage;
  /** Commits a new job's rows in one round trip (the composition root closes it). */
  writes: WriteBatch;
  /**
   * Starts the progress delivery of jobs whose channelContext names a notified channel (chat). Without it (tests of
   * other parts) such jobs are recorded with no outbox row and report nowhere.
   */
  notifications?: NotificationStarter;
  /** Counts jobs created and those cancelled (default: nothing). */
  telemetry?: Telemetry;
}

/**
 * The job use cases, for an edge that calls them all (the API, the chat conversation, the code host's handlers): each
 * lives in its own module over the ports it needs (create-job, answer-job, read-job, follow-job, cancel-job,
 * list-jobs, finding-disputes), so a new door can take only what it uses. Every read and write is scoped by the caller's
 * organization; another organization's ids are "not found", never "forbidden", so existence is not revealed.
 */
export function createJobService({ dataSource, planner, runs, artifacts, writes, notifications, telemetry }: JobServiceDeps) {
  const records = createJobRecords({ dataSource, planner, runs, writes, notifications, telemetry });
  return {
    ...createJobUseCase({ dataSource, records }),
    ...answerJobUseCase({ dataSource, records, notifications }),
    ...readJobUseCase({ dataSource, artifacts }),
    /** `list(principal, { filter, after, limit })`: the organization's jobs, newest first, a page at a time. */
    ...listJobsUseCase({ dataSource }),
    ...followJobUseCase({ dataSource }),
    ...cancelJobUseCase({ dataSource, notifications, telemetry }),
    /** `disputeFindings(principal, jobId, { by, reason, findingIds? })`: "not a bug" (finding-disputes.ts). */
    ...createFindingDisputes(dataSource),
  };
}

export type JobService = ReturnType<typeof createJobService>;
