/**
 * `GET /api/jobs/:id` as the page reads it. The answer is validated with the server's own schema
 * (`jobSchemas.A.view`); its record's id keys are computed per naming set, which widens zod's inferred type to an
 * index signature, so the validated answer is read here under Set A's names. The value types come from the exported
 * schemas; only the key names are written down.
 */
import type { z } from 'zod';
import { jobSchemas, type artifactSchema, type findingSchema, type resolutionSchema, type startedBySchema } from '../../../src/api/schemas/jobs.js';
import { api } from '../api/client.js';
import type { JobEvent } from './merge-events.js';

export type { JobEvent };
export type Artifact = z.output<typeof artifactSchema>;
export type Finding = z.output<typeof findingSchema>;
export type Resolution = z.output<typeof resolutionSchema>;
export type StartedBy = z.output<typeof startedBySchema>;

export interface JobRecord {
  jobId: string;
  /** One of the API's statuses (`jobStatuses`). */
  status: string;
  resolution?: Resolution;
  projectId: string;
  testId: string | null;
  workflowIdentity: string | null;
  parentJobId: string | null;
  childJobIds: string[];
  naturalLanguageTask: string | null;
  baseUrl: string;
  commitSha: string | null;
  trigger: string;
  networkAllowlist: string[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  startedBy: StartedBy | null;
}

export interface JobView {
  job: JobRecord;
  events: JobEvent[];
  artifacts: Artifact[];
  findings: Finding[];
}

type Shape = Record<string, z.ZodType & { shape?: Shape; options?: readonly string[] }>;

/** The statuses the API answers with, from the record schema's enum (so a new status needs no change here). */
export const jobStatuses: readonly string[] = (jobSchemas.A.view.shape as Shape).job?.shape?.status?.options ?? [];

export const jobPath = (jobId: string) => `/api/jobs/${encodeURIComponent(jobId)}`;

export async function fetchJobView(jobId: string, signal?: AbortSignal): Promise<JobView> {
  return (await api(jobSchemas.A.view, jobPath(jobId), { signal })) as unknown as JobView;
}
