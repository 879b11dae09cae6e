/**
 * The 202 of `POST /api/jobs` and `POST /api/jobs/:id/clarifications` (`jobSchemas.A.created`), read as what a page
 * does next: open a runnable job, or ask the questions of one awaiting answers.
 */
import type { z } from 'zod';
import type { jobSchemas, resolutionSchema } from '../../../src/api/schemas/jobs.js';

export type Resolution = z.output<typeof resolutionSchema>;

export type CreatedJob = { kind: 'runnable'; jobId: string } | { kind: 'review_required'; jobId: string; resolution: Resolution };

export function createdJobOf(answer: z.output<(typeof jobSchemas)['A']['created']>): CreatedJob {
  // The schema's id keys are computed per naming set, which widens zod's inferred type: read Set A's names.
  const body = answer as { jobId: string; status?: string; resolution?: Resolution };
  if (body.status === 'review_required' && body.resolution) return { kind: 'review_required', jobId: body.jobId, resolution: body.resolution };
  return { kind: 'runnable', jobId: body.jobId };
}
