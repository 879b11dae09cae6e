import type { z } from 'zod';
import type { CheckSummaryA } from '../api/schemas/checks.js';
import type { artifactSchema, findingSchema, jobEventSchema, resolutionSchema } from '../api/schemas/jobs.js';
import type { JobStatus } from '../core/job-lifecycle.js';
import type { JobTrigger } from '../core/job.js';

/**
 * What the MCP tools ask of the service, in the API's Set A words (jobs, tests, projects, findings) and shapes (the
 * response schemas of src/api/schemas). Two implementations: the REST client for `qa mcp` over stdio
 * (src/cli/mcp-port.ts), and the use cases in process for `/mcp` (service-port.ts). Both answer an unknown id, or
 * another organization's, with the API's 404 AppError (`job.not_found`, `check.not_found`).
 */
export interface QaPort {
  /** Where a person opens the service: job pages are `<publicBase>/jobs/<id>`, downloads `<publicBase><downloadPath>`. */
  readonly publicBase: string;
  /** POST /api/jobs. */
  createJob(request: JobRequest): Promise<JobCreated>;
  /** POST /api/jobs/:id/clarifications: the answers, in question order; resolves with the new (child) job. */
  answer(jobId: string, answers: string[]): Promise<JobCreated>;
  /** GET /api/jobs/:id. */
  getJob(jobId: string): Promise<JobView>;
  /**
   * GET /api/jobs/:id/events?after=: the events after index `after`, then new ones as they are written. The iterable
   * ends when the job is finished, or as soon as `signal` aborts.
   */
  events(jobId: string, after: number, signal: AbortSignal): AsyncIterable<JobEvent>;
  /** POST /api/jobs/:id/cancel. */
  cancelJob(jobId: string): Promise<{ jobId: string; status: 'cancelled' }>;
  /** GET /api/checks?projectId=&limit=: newest first. */
  listChecks(query: { projectId?: string; limit: number }): Promise<CheckSummary[]>;
  /** GET /api/checks/:id/source?version=: the generated @playwright/test source. */
  checkSource(testId: string, version?: number): Promise<string>;
}

/** The body of POST /api/jobs (Set A). */
export interface JobRequest {
  projectId: string;
  testId?: string;
  naturalLanguageTask?: string;
  baseUrl: string;
  networkAllowlist: string[];
  commitSha?: string;
  trigger: JobTrigger;
}

export type Resolution = z.output<typeof resolutionSchema>;
export type JobEvent = z.output<typeof jobEventSchema>;
export type Artifact = z.output<typeof artifactSchema>;
export type Finding = z.output<typeof findingSchema>;

/** 202 of a create or an answer: a runnable job (its check and workflow), or one that waits for answers. */
export type JobCreated =
  | { jobId: string; workflowIdentity: string; testId: string; parentJobId?: string; status?: undefined }
  | { jobId: string; status: 'review_required'; resolution: Resolution; parentJobId?: string };

export interface JobRecord {
  jobId: string;
  status: JobStatus;
  resolution?: Resolution;
  projectId: string;
  testId: string | null;
  parentJobId: string | null;
  childJobIds: string[];
  naturalLanguageTask: string | null;
  baseUrl: string;
  trigger: JobTrigger;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** GET /api/jobs/:id. */
export interface JobView {
  job: JobRecord;
  events: JobEvent[];
  artifacts: Artifact[];
  findings: Finding[];
}

/** One check of GET /api/checks. */
export type CheckSummary = CheckSummaryA;
