import type { Response } from 'express';
import type { EventFeed, FeedEnd } from '../jobs/event-feed.js';
import type { Principal } from '../core/principal.js';
import type { JobService } from '../jobs/job-service.js';
import type { JobEvent } from '../store/entities/job-event.entity.js';
import { iso, responseOf } from './respond.js';
import { jobEventSchema, type JobEventBody } from './schemas/jobs.js';

/** One event of a history: in GET …/:id and as one NDJSON line of …/:id/events. */
export function eventBody(event: JobEvent): JobEventBody {
  return { index: event.seq, type: event.type, at: iso(event.at), data: event.data as Record<string, unknown> };
}

/** The feed hands every follower the same event objects: each is rendered once, however many receive it. */
const rendered = new WeakMap<JobEvent, string>();

function lineOf(event: JobEvent): string {
  let line = rendered.get(event);
  if (line === undefined) {
    line = `${JSON.stringify(responseOf(jobEventSchema, eventBody(event)))}\n`;
    rendered.set(event, line);
  }
  return line;
}

function send(res: Response, events: JobEvent[]): void {
  if (events.length > 0) res.write(events.map(lineOf).join(''));
}

/**
 * Ends the response. Only a finished job ends it cleanly; otherwise (reading failed, the server is stopping) the
 * connection is cut, so a client can tell an interrupted stream from a finished job and resume with `?after`.
 */
function finish(res: Response, reason: FeedEnd): void {
  if (reason === 'finished') res.end();
  else res.destroy();
}

/**
 * NDJSON progress of one job: the organization-scoped read first (another organization's or an unknown job is a
 * 404 before any byte is sent), its history after `after`, then new events from the shared feed until the job is
 * finished. A client that goes away is unsubscribed.
 */
export async function streamJobEvents(
  res: Response,
  { jobs, feed }: { jobs: JobService; feed: EventFeed },
  principal: Principal,
  jobId: string,
  after: number,
): Promise<void> {
  const history = await jobs.eventsAfter(principal, jobId, after);
  res.status(200).type('application/x-ndjson');
  res.setHeader('cache-control', 'no-store');
  res.flushHeaders();
  send(res, history.events);
  if (history.finished) {
    res.end();
    return;
  }
  if (res.destroyed) return; // gone while the history was read: 'close' has fired already
  const unsubscribe = feed.follow(jobId, history.events.at(-1)?.seq ?? after, {
    events: (events) => send(res, events),
    end: (reason) => finish(res, reason),
  });
  res.on('close', unsubscribe);
}
