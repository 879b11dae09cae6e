/**
 * The request schemas of `/api/jobs` (Set A) and `/api/runs` (Set B): bodies and queries. The router parses with
 * them and the OpenAPI document (src/api/openapi) is generated from them. Not in src/api/schemas: their bounds come
 * from the store's column lengths, which the dashboard's schemas may not import.
 */
import { z } from 'zod';
import { splitClarifications } from '../../core/interpretation.js';
import { JOB_TRIGGERS } from '../../core/job.js';
import { JOB_STATUSES, type JobStatus } from '../../core/job-lifecycle.js';
import type { JobTrigger } from '../../core/job.js';
import type { NamingSet } from '../../core/naming.js';
import type { CreateJobInput, JobListFilter } from '../../jobs/job-service.js';
import { Job } from '../../store/entities/job.entity.js';
import { columnLength } from '../../store/column-limits.js';
import { commitSha, hostnameList, httpUrl, opaqueJsonObject } from '../fields.js';
import { isCanonicalId } from '../ids.js';

const id = z.string().min(1).max(64);
/** Stored in TEXT columns (65,535 bytes on MariaDB): 4 bytes a character at most in utf8mb4. */
const TASK_MAX_LENGTH = 4_000;
const BASE_URL_MAX_LENGTH = columnLength(Job, 'baseUrl');

/**
 * The create body's fields by meaning, for every door that takes a job request (the routers, the MCP tools): each
 * naming set names the id fields (`createBody`).
 */
export const jobRequestFields = {
  id,
  // Answers reach a task only through …/clarifications: a hand-written answers section would skip the review.
  naturalLanguageTask: z
    .string()
    .trim()
    .min(1)
    .max(TASK_MAX_LENGTH)
    .refine((task) => splitClarifications(task).rounds.length === 0, 'may not carry a Clarifications section; answer through /clarifications'),
  commitSha: commitSha.max(columnLength(Job, 'commitSha')),
  baseUrl: httpUrl(BASE_URL_MAX_LENGTH),
  networkAllowlist: hostnameList,
};

/** The create body under one naming set: unknown fields rejected, exactly one of the check id and the task. */
export function createBody(names: NamingSet) {
  const fields = jobRequestFields;
  return z
    .strictObject({
      [names.repositoryId]: fields.id,
      [names.checkId]: fields.id.optional(),
      naturalLanguageTask: fields.naturalLanguageTask.optional(),
      commitSha: fields.commitSha.optional(),
      baseUrl: fields.baseUrl,
      networkAllowlist: fields.networkAllowlist,
      trigger: z.enum(JOB_TRIGGERS),
      channelContext: opaqueJsonObject.optional(),
    })
    .refine((body) => (body[names.checkId] === undefined) !== (body.naturalLanguageTask === undefined), {
      message: `give exactly one of ${names.checkId} and naturalLanguageTask`,
      path: [names.checkId],
    })
    .transform((parsed): CreateJobInput => {
      // The id fields' names are computed (they differ by naming set), which widens zod's inferred type.
      const body = parsed as Record<string, unknown> & Omit<CreateJobInput, 'repositoryId' | 'checkId'>;
      return {
        repositoryId: body[names.repositoryId] as string,
        checkId: body[names.checkId] as string | undefined,
        naturalLanguageTask: body.naturalLanguageTask,
        commitSha: body.commitSha,
        baseUrl: body.baseUrl,
        networkAllowlist: body.networkAllowlist,
        trigger: body.trigger,
        channelContext: body.channelContext,
      };
    });
}

/**
 * "Not a bug": the reason (its length is the use case's rule, `dispute.reason_invalid`) and, optionally, which
 * findings; who disputes is the caller.
 */
export const disputeBody = z.strictObject({ reason: z.string(), findingIds: z.array(id).optional() });

export const answersBody = z.strictObject({ answers: z.array(z.string().trim().min(1, 'an answer may not be empty').max(2_000)).min(1).max(20) });


export const afterQuery = z.strictObject({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });

/** `?status=failed&status=errored` or `?status=failed,errored`: each value, once, trimmed. */
function listOf<T extends string>(values: readonly [T, ...T[]]) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((given) => [...new Set((Array.isArray(given) ? given : [given]).flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(values)).max(values.length));
}

const filterId = z.string().refine(isCanonicalId, 'must be an id the service handed out (a lowercase UUID)');

/** GET …/ query in this naming set's words; unknown parameters refused. */
export function listQuery(names: NamingSet) {
  return z
    .strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      cursor: z.string().max(200).optional(),
      status: listOf(JOB_STATUSES).optional(),
      trigger: listOf(JOB_TRIGGERS).optional(),
      [names.repositoryId]: filterId.optional(),
      [names.checkId]: filterId.optional(),
      q: z.string().max(200).optional(),
    })
    .transform((parsed) => {
      const query = parsed as Record<string, unknown> & { limit: number; cursor?: string; status?: JobStatus[]; trigger?: JobTrigger[]; q?: string };
      const text = query.q?.trim();
      const filter: JobListFilter = {
        statuses: query.status,
        triggers: query.trigger,
        repositoryId: query[names.repositoryId] as string | undefined,
        checkId: query[names.checkId] as string | undefined,
        text: text ? text : undefined,
      };
      return { limit: query.limit, cursor: query.cursor, filter };
    });
}

export const updatesQuery = z.strictObject({ after: z.string().max(200).optional() });

