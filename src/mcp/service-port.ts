import { checkBody } from '../api/checks.router.js';
import { eventBody } from '../api/event-stream.js';
import { assertIdShape, isCanonicalId } from '../api/ids.js';
import { createdBody, viewBody } from '../api/jobs.router.js';
import { createBody } from '../api/requests/jobs.js';
import { parse } from '../api/error-mapper.js';
import { responseOf } from '../api/respond.js';
import { checkSchemas } from '../api/schemas/checks.js';
import { jobSchemas } from '../api/schemas/jobs.js';
import { notFoundError } from '../core/errors.js';
import type { NotFoundResource } from '../core/error-codes.js';
import { SET_A } from '../core/naming.js';
import type { Principal } from '../core/principal.js';
import type { CheckService } from '../jobs/check-service.js';
import type { EventFeed, FeedEnd } from '../jobs/event-feed.js';
import type { JobService } from '../jobs/job-service.js';
import type { CheckSummary, JobCreated, JobEvent, JobView, QaPort } from './port.js';

export interface ServicePortDeps {
  jobs: JobService;
  checks: CheckService;
  /** The shared pollers behind GET …/:id/events: a waiting tool follows a job as the API's stream does. */
  feed: EventFeed;
  /** PUBLIC_BASE_URL: where people open job pages and downloads. */
  publicBase: string;
}

const schemas = jobSchemas.A;
const createSchema = createBody(SET_A);

/** A path id the API would refuse before any query (src/api/ids.ts): another form names nothing here either. */
function canonical(id: string, what: NotFoundResource): string {
  if (!isCanonicalId(id)) throw notFoundError(what);
  return id;
}

/**
 * The MCP tools' port in process, for `/mcp`: the use cases the API's routers call, for the caller the API
 * authenticated, with the routers' own request schemas and answer bodies, so a tool answers what the API answers
 * (the same 400s and 404s, another organization's ids not found).
 */
export function createServicePort({ jobs, checks, feed, publicBase }: ServicePortDeps, principal: Principal): QaPort {
  return {
    publicBase,

    async createJob(request) {
      const input = parse(createSchema, request);
      assertIdShape(input.repositoryId, 'repository', 'repositoryId');
      if (input.checkId !== undefined) assertIdShape(input.checkId, 'check', 'checkId');
      return responseOf(schemas.created, createdBody(SET_A, await jobs.create(principal, input))) as JobCreated;
    },

    async answer(jobId, answers) {
      return responseOf(schemas.created, createdBody(SET_A, await jobs.answer(principal, canonical(jobId, 'job'), answers))) as JobCreated;
    },

    async getJob(jobId) {
      return responseOf(schemas.view, viewBody(SET_A, await jobs.get(principal, canonical(jobId, 'job')))) as unknown as JobView;
    },

    events(jobId, after, signal) {
      return followEvents({ jobs, feed }, principal, canonical(jobId, 'job'), after, signal);
    },

    async cancelJob(jobId) {
      return jobs.cancel(principal, canonical(jobId, 'job'));
    },

    async listChecks({ projectId, limit }) {
      // As GET /api/checks: an id in another form names no repository of this organization, so nothing is listed.
      const list = projectId !== undefined && !isCanonicalId(projectId) ? [] : await checks.list(principal, { repositoryId: projectId, limit });
      return (responseOf(checkSchemas.A.list, { checks: list.map((check) => checkBody(SET_A, check)) }) as unknown as { checks: CheckSummary[] }).checks;
    },

    async checkSource(testId, version) {
      return (await checks.source(principal, canonical(testId, 'check'), version)).source;
    },
  };
}

/**
 * A job's events after `after` as the API's stream sends them: the organization-scoped history first, then the
 * shared feed's, until the job is finished, the feed ends (a failed read, a shutdown) or `signal` aborts.
 */
async function* followEvents(
  { jobs, feed }: { jobs: JobService; feed: EventFeed },
  principal: Principal,
  jobId: string,
  after: number,
  signal: AbortSignal,
): AsyncGenerator<JobEvent> {
  const history = await jobs.eventsAfter(principal, jobId, after);
  for (const event of history.events) yield eventBody(event) as JobEvent;
  if (history.finished || signal.aborted) return;

  const pending: JobEvent[] = [];
  let ended: FeedEnd | 'aborted' | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = feed.follow(jobId, history.events.at(-1)?.seq ?? after, {
    events: (events) => {
      pending.push(...events.map((event) => eventBody(event) as JobEvent));
      poke();
    },
    end: (reason) => {
      ended = reason;
      poke();
    },
  });
  const onAbort = () => {
    ended = 'aborted';
    poke();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      while (pending.length > 0) yield pending.shift()!;
      if (ended !== undefined) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
