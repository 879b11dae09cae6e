import { z } from 'zod';
import { ErrorCode, operationalError } from '../core/errors.js';
import { JOB_STATUSES } from '../core/job-lifecycle.js';
import type { NamingSet } from '../core/naming.js';

/**
 * The parts of the API's answers the client verbs act on, checked with zod (the API is a trust boundary for the
 * CLI too); everything else is printed as the server sent it.
 */

/** One line of `GET …/:id/events`. */
export const jobEventLine = z.object({
  index: z.number().int().min(0),
  type: z.string(),
  at: z.string(),
  data: z.unknown(),
});
export type JobEventLine = z.infer<typeof jobEventLine>;

const resolution = z.object({ questions: z.array(z.string()) });

const jobRecord = z.object({
  status: z.enum(JOB_STATUSES),
  resolution: resolution.optional(),
  createdAt: z.string().optional(),
});
export type JobRecord = z.infer<typeof jobRecord>;

/** A 202 of create or answer: review_required carries the questions, a runnable job none. */
const createdJob = z.object({ status: z.string().optional(), resolution: resolution.optional() });

function read<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw operationalError(ErrorCode.ApiBadResponse, `The QA API answered with ${what} that this client does not understand: ${z.prettifyError(result.error)}`);
}

export function parseEventLine(line: string): JobEventLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = line;
  }
  return read(jobEventLine, value, 'an event line');
}

/** The job record of a GET answer, under `names.record` (`job` or `run`). */
export function recordOf(names: NamingSet, view: unknown): JobRecord {
  return read(jobRecord, (view as Record<string, unknown> | null)?.[names.record], `a ${names.record} record`);
}

/** A 202 of create or answer: the new job's id (`names.id`), and its questions when it stopped for review. */
export function createdOf(names: NamingSet, created: unknown): { jobId: string; questions: string[] | undefined } {
  const body = read(createdJob, created, `a created ${names.record}`);
  const jobId = read(z.string().min(1), (created as Record<string, unknown>)[names.id], `an unusable ${names.id}`);
  return { jobId, questions: body.status === 'review_required' ? (body.resolution?.questions ?? []) : undefined };
}
