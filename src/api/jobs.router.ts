import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { actorName } from '../core/principal.js';
import type { NamingSet } from '../core/naming.js';
import type { EventFeed } from '../jobs/event-feed.js';
import type { JobUpdatesFeed } from '../jobs/job-updates-feed.js';
import type { CreatedJob, JobService, JobView } from '../jobs/job-service.js';
import type { Artifact } from '../store/entities/artifact.entity.js';
import type { Finding } from '../store/entities/finding.entity.js';
import { iso, isoOrNull, responseOf } from './respond.js';
import { jobSchemas, type ArtifactBody, type FindingBody } from './schemas/jobs.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { eventBody, streamJobEvents } from './event-stream.js';
import { assertIdShape, guardPathIds, undecodablePathAsNotFound } from './ids.js';
import { afterQuery, answersBody, createBody, disputeBody, listQuery, updatesQuery } from './requests/jobs.js';
import { decodeChangeCursor, decodeListCursor, encodeListCursor } from './cursors.js';
import { startedByBody, summaryBody } from './job-summaries.js';
import { streamJobUpdates } from './job-updates-stream.js';

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
