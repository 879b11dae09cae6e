/**
 * PENDING: the jobs list and updates schemas of the `webapi` branch (GET /api/jobs, GET /api/jobs/updates), written
 * here against its shapes until it is merged. When it is, use `jobSchemas.A.list` and `jobSchemas.A.updateLine`
 * from src/api/schemas/jobs.ts instead (web/src/api/job-summary.ts is the one importer) and delete this file.
 */
import { z } from 'zod';
import { idSchema, timestampSchema } from '../../../src/api/schemas/common.js';
import { jobStatusSchema, jobTriggerSchema } from '../../../src/api/schemas/job-fields.js';
import { startedBySchema } from '../../../src/api/schemas/jobs.js';

const summary = z.object({
  jobId: idSchema,
  status: jobStatusSchema,
  trigger: jobTriggerSchema,
  projectId: idSchema,
  testId: idSchema.nullable(),
  parentJobId: idSchema.nullable(),
  naturalLanguageTask: z.string().nullable(),
  startedBy: startedBySchema.nullable(),
  createdAt: timestampSchema,
  startedAt: timestampSchema.nullable(),
  finishedAt: timestampSchema.nullable(),
});

export const pendingJobSchemas = {
  summary,
  list: z.object({ jobs: z.array(summary), nextCursor: z.string().nullable() }),
  updateLine: z.discriminatedUnion('type', [
    z.object({ type: z.literal('job'), cursor: z.string(), job: summary }),
    z.object({ type: z.literal('heartbeat'), cursor: z.string() }),
  ]),
};
