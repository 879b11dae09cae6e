import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { z } from 'zod';
import { splitClarifications } from '../core/interpretation.js';
import { JOB_TRIGGERS } from '../core/job.js';
import { JOB_STATUSES } from '../core/job-lifecycle.js';
import { actorName } from '../core/principal.js';
import type { NamingSet } from '../core/naming.js';
import type { EventFeed } from '../jobs/event-feed.js';
import type { JobUpdatesFeed } from '../jobs/job-updates-feed.js';
import type { CreatedJob, CreateJobInput, JobListFilter, JobService, JobView } from '../jobs/job-service.js';
import type { JobStatus } from '../core/job-lifecycle.js';
import type { JobTrigger } from '../core/job.js';
import type { Artifact } from '../store/entities/artifact.entity.js';
import type { Finding } from '../store/entities/finding.entity.js';
import { iso, isoOrNull, responseOf } from './respond.js';
import { jobSchemas, type ArtifactBody, type FindingBody } from './schemas/jobs.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { eventBody, streamJobEvents } from './event-stream.js';
import { Job } from '../store/entities/job.entity.js';
import { columnLength } from '../store/column-limits.js';
import { commitSha, hostnameList, httpUrl, opaqueJsonObject } from './fields.js';
import { assertIdShape, guardPathIds, isCanonicalId, undecodablePathAsNotFound } from './ids.js';
import { decodeChangeCursor, decodeListCursor, encodeListCursor } from './cursors.js';
import { startedByBody, summaryBody } from './job-summaries.js';
import { streamJobUpdates } from './job-updates-stream.js';

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

/** 202 body for a created job, in this naming set's words. */
export function createdBody(names: NamingSet, created: CreatedJob): Record<string, unknown> {
  const parent = created.parentJobId ? { [names.parentId]: created.parentJobId } : {};
  if (created.kind === 'review_required') {
    return { [names.id]: created.jobId, status: 'review_required', resolution: created.resolution, ...parent };
  }
  return { [names.id]: created.jobId, [names.workflowId]: created.workflowId, [names.checkId]: created.checkId, ...parent };
}

/** Artifact metadata a client may see: never the storage key; bytes come from the authenticated download path. */
function artifactBody(names: NamingSet, artifact: Artifact): ArtifactBody {
  return {
    id: artifact.id,
    kind: artifact.kind,
    name: artifact.name,
    contentType: artifact.contentType,
    sizeBytes: artifact.sizeBytes,
    sha256: artifact.sha256,
    stepIndex: artifact.stepIndex,
    createdAt: iso(artifact.createdAt),
    downloadPath: `/api/${names.collection}/${artifact.jobId}/artifacts/${artifact.id}`,
  };
}

function findingBody(finding: Finding): FindingBody {
  return {
    id: finding.id,
    kind: finding.kind as FindingBody['kind'],
    severity: finding.severity as FindingBody['severity'],
    title: finding.title,
    detail: finding.detail,
    stepIndex: finding.stepIndex,
    expected: finding.expected ?? null,
    actual: finding.actual ?? null,
    artifactIds: finding.artifactIds,
    createdAt: iso(finding.createdAt),
    disputedAt: isoOrNull(finding.disputedAt),
    disputedBy: finding.disputedBy,
    disputeReason: finding.disputeReason,
  };
}

/** GET body: the record, the ordered history, safe artifact metadata and findings/reports. */
export function viewBody(names: NamingSet, { job, childJobIds, events, artifacts, findings }: JobView): Record<string, unknown> {
  return {
    [names.record]: {
      [names.id]: job.id,
      status: job.status,
      ...(job.resolution ? { resolution: job.resolution } : {}),
      [names.repositoryId]: job.repositoryId,
      [names.checkId]: job.checkId,
      [names.workflowId]: job.workflowId,
      [names.parentId]: job.parentJobId,
      [names.childIds]: childJobIds,
      naturalLanguageTask: job.task,
      baseUrl: job.baseUrl,
      commitSha: job.commitSha,
      trigger: job.trigger,
      networkAllowlist: job.networkAllowlist,
      channelContext: job.channelContext,
      createdAt: iso(job.createdAt),
      startedAt: isoOrNull(job.startedAt),
      finishedAt: isoOrNull(job.finishedAt),
      startedBy: startedByBody(job.startedBy),
    },
    events: events.map(eventBody),
    artifacts: artifacts.map((artifact) => artifactBody(names, artifact)),
    [names.results]: findings.map(findingBody),
  };
}

const afterQuery = z.strictObject({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });

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

const updatesQuery = z.strictObject({ after: z.string().max(200).optional() });

/** `/api/jobs` (Set A) or `/api/runs` (Set B): the same service, named at the edge. */
export function createJobsRouter(names: NamingSet, jobs: JobService, feed: EventFeed, updates: JobUpdatesFeed): Router {
  // Built once per router: building a zod schema costs far more than parsing with it.
  const bodySchema = createBody(names);
  const listSchema = listQuery(names);
  const answerSchemas = jobSchemas[names.set];
  const router = Router();
  router.use(jsonBody('256kb'));
  guardPathIds(router, { id: 'job', artifactId: 'artifact' });

  router.post('/', async (req, res) => {
    const input = parse(bodySchema, req.body);
    // The service names these fields so in its own 404s.
    assertIdShape(input.repositoryId, 'repository', 'repositoryId');
    if (input.checkId !== undefined) assertIdShape(input.checkId, 'check', 'checkId');
    const created = await jobs.create(principalOf(res), input);
    res.status(202).json(responseOf(answerSchemas.created, createdBody(names, created)));
  });

  /** The organization's jobs, newest first, a page at a time (keyset: `nextCursor` into `?cursor=`), filtered. */
  router.get('/', async (req, res) => {
    const { limit, cursor, filter } = parse(listSchema, req.query);
    const after = cursor === undefined ? undefined : decodeListCursor(cursor);
    const page = await jobs.list(principalOf(res), { filter, after, limit });
    const body = { [names.collection]: page.jobs.map((job) => summaryBody(names, job)), nextCursor: page.next ? encodeListCursor(page.next) : null };
    res.json(responseOf(answerSchemas.list, body));
  });

  /**
   * NDJSON of the organization's jobs as they are created and change state (job-updates-stream.ts): one shared poller
   * per organization (job-updates-feed.ts), resumable with `?after=<cursor>`. Before `/:id`, which would take it for an id.
   */
  router.get('/updates', (req, res) => {
    const { after } = parse(updatesQuery, req.query);
    streamJobUpdates(res, { updates, names, principal: principalOf(res), after: after === undefined ? undefined : decodeChangeCursor(after) });
  });

  router.post('/:id/cancel', async (req, res) => {
    const cancelled = await jobs.cancel(principalOf(res), req.params.id);
    res.status(200).json(responseOf(answerSchemas.cancelled, { [names.id]: cancelled.jobId, status: cancelled.status }));
  });

  router.post('/:id/clarifications', async (req, res) => {
    const { answers } = parse(answersBody, req.body);
    const created = await jobs.answer(principalOf(res), req.params.id, answers);
    res.status(202).json(responseOf(answerSchemas.created, createdBody(names, created)));
  });

  router.post('/:id/findings/dispute', async (req, res) => {
    const { reason, findingIds } = parse(disputeBody, req.body);
    const principal = principalOf(res);
    const disputed = await jobs.disputeFindings(principal, req.params.id, { by: actorName(principal), reason, findingIds });
    res.status(200).json(responseOf(answerSchemas.disputed, { [names.id]: req.params.id, [names.results]: disputed.map(findingBody) }));
  });

  /**
   * NDJSON, one event per line (`{"index","type","at","data"}`): the history after `?after=n`, then new events as
   * they are written (one shared poller per job, `event-feed.ts`), until the job is finished. Reconnecting with the
   * last index seen misses nothing and repeats nothing.
   */
  router.get('/:id/events', async (req, res) => {
    const { after = -1 } = parse(afterQuery, req.query);
    await streamJobEvents(res, { jobs, feed }, principalOf(res), req.params.id, after);
  });

  /** The bytes of one artifact, as a download; the type is fixed by what the run stored, never sniffed. */
  router.get('/:id/artifacts/:artifactId', async (req, res) => {
    const { artifact, content } = await jobs.openArtifact(principalOf(res), req.params.id, req.params.artifactId);
    res.status(200);
    res.setHeader('content-type', artifact.contentType);
    res.setHeader('content-length', String(artifact.sizeBytes));
    res.setHeader('content-disposition', `attachment; filename="${artifact.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'private, no-store');
    res.setHeader('digest', `sha-256=${Buffer.from(artifact.sha256, 'hex').toString('base64')}`);
    await pipeline(content, res);
  });

  router.get('/:id', async (req, res) => {
    res.json(responseOf(answerSchemas.view, viewBody(names, await jobs.get(principalOf(res), req.params.id))));
  });

  router.use(undecodablePathAsNotFound('job'));
  return router;
}
