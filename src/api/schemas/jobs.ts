import { z } from 'zod';
import { FINDING_KINDS, FINDING_SEVERITIES } from '../../core/findings.js';
import { JOB_STATUSES } from '../../core/job-lifecycle.js';
import { JOB_TRIGGERS } from '../../core/job.js';
import { SET_A, SET_B, type NamingSet } from '../../core/naming.js';
import { idSchema, timestampSchema } from './common.js';

/** Why a job stopped for review (spec 2.2). */
export const resolutionSchema = z.object({
  kind: z.literal('needs_clarification'),
  questions: z.array(z.string()),
  ambiguities: z.array(z.string()),
  assumptions: z.array(z.string()),
});

/** One event of a job's history: in GET …/:id and as one NDJSON line of …/:id/events. */
export const jobEventSchema = z.object({
  index: z.number().int().min(0),
  type: z.string(),
  at: timestampSchema,
  data: z.record(z.string(), z.unknown()),
});
export type JobEventBody = z.input<typeof jobEventSchema>;

/** Artifact metadata: never the storage key; the bytes come from `downloadPath`. */
export const artifactSchema = z.object({
  id: idSchema,
  kind: z.string(),
  name: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int().min(0),
  sha256: z.string(),
  stepIndex: z.number().int().nullable(),
  createdAt: timestampSchema,
  downloadPath: z.string(),
});
export type ArtifactBody = z.input<typeof artifactSchema>;

/** A finding (Set A) / report (Set B). */
export const findingSchema = z.object({
  id: idSchema,
  kind: z.enum(FINDING_KINDS),
  severity: z.enum(FINDING_SEVERITIES),
  title: z.string(),
  detail: z.string(),
  stepIndex: z.number().int().nullable(),
  /** A failed expectation: what it expected and what the page showed instead (nearest first); both null otherwise. */
  expected: z.string().nullable(),
  actual: z.array(z.string()).nullable(),
  artifactIds: z.array(idSchema),
  createdAt: timestampSchema,
  /** "Not a bug": when, by whom and why it was disputed; all three null when it was not. */
  disputedAt: timestampSchema.nullable(),
  disputedBy: z.string().nullable(),
  disputeReason: z.string().nullable(),
});
export type FindingBody = z.input<typeof findingSchema>;

/** The job (run) record in one naming set. */
export const startedBySchema = z.object({ kind: z.enum(['person', 'machine']), actor: z.string() });

export function jobRecordSchema(names: NamingSet) {
  return z.object({
    [names.id]: idSchema,
    status: z.enum(JOB_STATUSES),
    resolution: resolutionSchema.optional(),
    [names.repositoryId]: idSchema,
    [names.checkId]: idSchema.nullable(),
    [names.workflowId]: idSchema.nullable(),
    [names.parentId]: idSchema.nullable(),
    [names.childIds]: z.array(idSchema),
    naturalLanguageTask: z.string().nullable(),
    baseUrl: z.string(),
    commitSha: z.string().nullable(),
    trigger: z.enum(JOB_TRIGGERS),
    networkAllowlist: z.array(z.string()),
    channelContext: z.record(z.string(), z.unknown()).nullable(),
    createdAt: timestampSchema,
    startedAt: timestampSchema.nullable(),
    finishedAt: timestampSchema.nullable(),
    /** Who asked for the job: a signed-in person (`user:<id>`) or a machine (API key, schedule, chat, code host). */
    startedBy: startedBySchema.nullable(),
  });
}

/** GET /api/jobs/:id (or /api/runs/:id): the record, its ordered history, artifacts and findings (reports). */
export function jobViewSchema(names: NamingSet) {
  return z.object({
    [names.record]: jobRecordSchema(names),
    events: z.array(jobEventSchema),
    artifacts: z.array(artifactSchema),
    [names.results]: z.array(findingSchema),
  });
}

/** 202 of a create or an answer: a runnable job with its workflow and check, or one awaiting answers. */
export function jobCreatedSchema(names: NamingSet) {
  return z.union([
    z.object({
      [names.id]: idSchema,
      [names.workflowId]: idSchema,
      [names.checkId]: idSchema,
      [names.parentId]: idSchema.optional(),
    }),
    z.object({
      [names.id]: idSchema,
      status: z.literal('review_required'),
      resolution: resolutionSchema,
      [names.parentId]: idSchema.optional(),
    }),
  ]);
}

/** 200 of POST …/:id/cancel. */
export function jobCancelledSchema(names: NamingSet) {
  return z.object({ [names.id]: idSchema, status: z.literal('cancelled') });
}

/** 200 of POST …/:id/findings/dispute: the job's id and the findings (reports) now disputed, in run order. */
export function findingsDisputedSchema(names: NamingSet) {
  return z.object({ [names.id]: idSchema, [names.results]: z.array(findingSchema) });
}

/**
 * A job in a list (GET /api/jobs, /api/runs) and on the updates stream: what a row of the dashboard shows. How long
 * it took is `finishedAt - startedAt`.
 */
export function jobSummarySchema(names: NamingSet) {
  return z.object({
    [names.id]: idSchema,
    status: z.enum(JOB_STATUSES),
    trigger: z.enum(JOB_TRIGGERS),
    [names.repositoryId]: idSchema,
    [names.checkId]: idSchema.nullable(),
    [names.parentId]: idSchema.nullable(),
    naturalLanguageTask: z.string().nullable(),
    startedBy: startedBySchema.nullable(),
    createdAt: timestampSchema,
    startedAt: timestampSchema.nullable(),
    finishedAt: timestampSchema.nullable(),
  });
}

/**
 * GET /api/jobs (Set B: /api/runs, key `runs`): newest first (createdAt, then id, descending). `nextCursor` goes in
 * `?cursor=` for the next page; null on the last one.
 */
export function jobListSchema(names: NamingSet) {
  return z.object({ [names.collection]: z.array(jobSummarySchema(names)), nextCursor: z.string().nullable() });
}

/**
 * One NDJSON line of GET /api/jobs/updates (/api/runs/updates): a job created or changed (its summary as it is now;
 * Set A `{"type":"job","cursor","job"}`, Set B `{"type":"run","cursor","run"}`), or a heartbeat (the first line, then at least every 15 s). `cursor` in `?after=` resumes after that line.
 */
export function jobUpdateLineSchema(names: NamingSet) {
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal(names.record), cursor: z.string(), [names.record]: jobSummarySchema(names) }),
    z.object({ type: z.literal('heartbeat'), cursor: z.string() }),
  ]);
}

/** The job schemas of each naming set, built once. */
export const jobSchemas = Object.fromEntries(
  [SET_A, SET_B].map((names) => [
    names.set,
    {
      view: jobViewSchema(names),
      created: jobCreatedSchema(names),
      cancelled: jobCancelledSchema(names),
      disputed: findingsDisputedSchema(names),
      summary: jobSummarySchema(names),
      list: jobListSchema(names),
      updateLine: jobUpdateLineSchema(names),
    },
  ]),
) as Record<
  NamingSet['set'],
  {
    view: ReturnType<typeof jobViewSchema>;
    created: ReturnType<typeof jobCreatedSchema>;
    cancelled: ReturnType<typeof jobCancelledSchema>;
    disputed: ReturnType<typeof findingsDisputedSchema>;
    summary: ReturnType<typeof jobSummarySchema>;
    list: ReturnType<typeof jobListSchema>;
    updateLine: ReturnType<typeof jobUpdateLineSchema>;
  }
>;
