import express, { Router } from 'express';
import { z } from 'zod';
import { splitClarifications } from '../core/interpretation.js';
import { JOB_TRIGGERS } from '../core/job.js';
import type { NamingSet } from '../core/naming.js';
import type { CreatedJob, CreateJobInput, JobService, JobView } from '../jobs/job-service.js';
import { organizationOf } from './auth.js';
import { parse } from './error-mapper.js';
import { commitSha, hostnameList, httpUrl } from './fields.js';

const id = z.string().min(1).max(64);

/** The create body under one naming set: unknown fields rejected, exactly one of the check id and the task. */
function createBody(names: NamingSet) {
  return z
    .strictObject({
      [names.repositoryId]: id,
      [names.checkId]: id.optional(),
      // Answers reach a task only through …/clarifications: a hand-written answers section would skip the review.
      naturalLanguageTask: z
        .string()
        .trim()
        .min(1)
        .max(4_000)
        .refine((task) => splitClarifications(task).rounds.length === 0, 'may not carry a Clarifications section; answer through /clarifications')
        .optional(),
      commitSha: commitSha.optional(),
      baseUrl: httpUrl,
      networkAllowlist: hostnameList,
      trigger: z.enum(JOB_TRIGGERS),
      channelContext: z.record(z.string(), z.unknown()).optional(),
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

const answersBody = z.strictObject({ answers: z.array(z.string().trim().min(1, 'an answer may not be empty').max(2_000)).min(1) });

/** 202 body for a created job, in this naming set's words. */
function createdBody(names: NamingSet, created: CreatedJob): Record<string, unknown> {
  const parent = created.parentJobId ? { [names.parentId]: created.parentJobId } : {};
  if (created.kind === 'review_required') {
    return { [names.id]: created.jobId, status: 'review_required', resolution: created.resolution, ...parent };
  }
  return { [names.id]: created.jobId, [names.workflowId]: created.workflowId, [names.checkId]: created.checkId, ...parent };
}

/** GET body: the record, the ordered history, safe artifact metadata and findings/reports (none yet before runs). */
function viewBody(names: NamingSet, { job, childJobIds, events }: JobView): Record<string, unknown> {
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
      createdAt: job.createdAt,
    },
    events: events.map((event) => ({ index: event.seq, type: event.type, at: event.at, data: event.data })),
    artifacts: [],
    [names.results]: [],
  };
}

/** How often a follower looks for new events while its job runs (the worker may be another process). */
const FOLLOW_POLL_MS = 200;
const afterQuery = z.strictObject({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });

/** `/api/jobs` (Set A) or `/api/runs` (Set B): the same service, named at the edge. */
export function createJobsRouter(names: NamingSet, jobs: JobService): Router {
  const router = Router();
  router.use(express.json({ limit: '256kb' }));

  router.post('/', async (req, res) => {
    const created = await jobs.create(organizationOf(res), parse(createBody(names), req.body));
    res.status(202).json(createdBody(names, created));
  });

  router.post('/:id/clarifications', async (req, res) => {
    const { answers } = parse(answersBody, req.body);
    const created = await jobs.answer(organizationOf(res), req.params.id, answers);
    res.status(202).json(createdBody(names, created));
  });

  /**
   * NDJSON, one event per line (`{"index","type","at","data"}`): the history after `?after=n`, then new events as
   * they are written, until the job is finished. Reconnecting with the last index seen misses nothing and repeats
   * nothing.
   */
  router.get('/:id/events', async (req, res) => {
    const { after = -1 } = parse(afterQuery, req.query);
    const organizationId = organizationOf(res);
    let batch = await jobs.eventsAfter(organizationId, req.params.id, after);
    let closed = false;
    req.on('close', () => {
      closed = true;
    });
    res.status(200).type('application/x-ndjson');
    res.setHeader('cache-control', 'no-store');
    res.flushHeaders();
    let last = after;
    try {
      for (;;) {
        for (const event of batch.events) {
          res.write(`${JSON.stringify({ index: event.seq, type: event.type, at: event.at, data: event.data })}\n`);
          last = event.seq;
        }
        if (batch.finished || closed) break;
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
        batch = await jobs.eventsAfter(organizationId, req.params.id, last);
      }
    } finally {
      // Headers are out: a failure here can only end the stream; the client reconnects with `after`.
      res.end();
    }
  });

  router.get('/:id', async (req, res) => {
    res.json(viewBody(names, await jobs.get(organizationOf(res), req.params.id)));
  });

  return router;
}
