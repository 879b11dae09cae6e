/**
 * A job as the jobs list and its updates stream show it (the API's job summary, Set A names), and the schemas that
 * validate both. The shared schemas key ids by naming set, which widens zod's inferred types; this type names the
 * Set A fields the dashboard reads.
 */
import type { z } from 'zod';
import { jobSchemas, type startedBySchema } from '../../../src/api/schemas/jobs.js';
import { jobStatusSchema, jobTriggerSchema } from '../../../src/api/schemas/job-fields.js';

export type JobStatus = z.output<typeof jobStatusSchema>;
export type JobTrigger = z.output<typeof jobTriggerSchema>;
export const JOB_STATUS_VALUES: readonly JobStatus[] = jobStatusSchema.options;
export const JOB_TRIGGER_VALUES: readonly JobTrigger[] = jobTriggerSchema.options;

export type JobSummary = {
  jobId: string;
  status: JobStatus;
  trigger: JobTrigger;
  projectId: string;
  testId: string | null;
  parentJobId: string | null;
  naturalLanguageTask: string | null;
  startedBy: z.output<typeof startedBySchema> | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

/** One page of GET /api/jobs. */
export type JobPage = { jobs: JobSummary[]; nextCursor: string | null };

/** A line of GET /api/jobs/updates: a job created or changed, or a heartbeat; both carry the resume cursor. */
export type JobUpdate = { cursor: string; job?: JobSummary };

export const jobListSchema = jobSchemas.A.list;
export const jobUpdateLineSchema = jobSchemas.A.updateLine;

// The shared schemas' computed id keys widen the parsed types: read them as the Set A shapes they were validated as.
export function jobPageOf(answer: z.output<typeof jobListSchema>): JobPage {
  const body = answer as unknown as JobPage;
  return { jobs: body.jobs, nextCursor: body.nextCursor };
}

export function jobUpdateOf(line: z.output<typeof jobUpdateLineSchema>): JobUpdate {
  const body = line as unknown as { type: string; cursor: string; job?: JobSummary };
  return body.type === 'job' && body.job ? { cursor: body.cursor, job: body.job } : { cursor: body.cursor };
}
