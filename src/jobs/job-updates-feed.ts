import type { Logger } from '../logger.js';
import type { FeedEnd, FeedTimers } from './event-feed.js';
import { comparePositions, positionOf, type ChangePosition } from './job-changes.js';
import type { JobSummaryRow } from './list-jobs.js';

/** How often an organization's poller reads the job rows written since its last read (one read per tick, whatever the number of streams). */
export const UPDATES_TICK_MS = 1_000;

/**
 * How old a write must be before it is read. `updated_at` is the writer's clock when it wrote the row, not when its
 * transaction committed: a row committed later than a reader's pass, with a time before it, would be skipped for
 * good. Every writer of a job row commits within milliseconds of setting the time (job-records, cancel-job,
 * run-recorder: short transactions with no I/O but the database), so reading only writes older than this sees each
 * one once, in order, and also absorbs small clock differences between the API and worker processes.
 */
export const UPDATES_SETTLE_MS = 1_000;

/** Rows read at most per pass; a poller behind by more reads again at once. */
export const UPDATES_PAGE = 200;

/** The organization's job rows written in (after, upTo], in (updated_at, id) order, at most `limit` (`readJobChanges`). */
export type ReadChanges = (organizationId: string, after: ChangePosition, upTo: Date, limit: number) => Promise<JobSummaryRow[]>;

export interface UpdatesFollower {
  /**
   * After each pass: the rows written after the follower's position (in order, each once; often none) and its new
   * position, a watermark at or after the last row's.
   */
  advance(rows: JobSummaryRow[], position: ChangePosition): void;
  /** Called once, last: reading failed (resume with the last cursor) or the feed closed; not after unsubscribing. */
  end(reason: Exclude<FeedEnd, 'finished'>): void;
}

export interface JobUpdatesFeed {
  /** Where a stream that gives no cursor starts: the writes that may still be unread (the settle window) and all later ones. */
  now(): ChangePosition;
  /** Follows an organization's job writes after `after`; returns the unsubscribe function. */
  follow(organizationId: string, after: ChangePosition, follower: UpdatesFollower): () => void;
  /** Polled organizations and followers (tests, metrics). */
  size(): { organizations: number; followers: number };
  /** Ends every stream with `closed` and stops every poller (shutdown, before the HTTP server closes). */
  close(): void;
}

export interface JobUpdatesFeedDeps {
  read: ReadChanges;
  logger: Logger;
  clock?: () => Date;
  tickMs?: number;
  settleMs?: number;
  pageSize?: number;
  timers?: FeedTimers;
}

interface Subscription {
  position: ChangePosition;
  follower: UpdatesFollower;
}

interface Poller {
  organizationId: string;
  subscriptions: Set<Subscription>;
  timer: unknown;
  reading: boolean;
}

const REAL_TIMERS: FeedTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const later = (a: ChangePosition, b: ChangePosition) => (comparePositions(a, b) >= 0 ? a : b);

/**
 * One shared poller per organization with open update streams: each pass reads the rows written after the
 * furthest-behind follower's position, up to the settle horizon, and hands every follower the ones after its own. A
 * follower that joined during a read, behind where that read started, is served by a read issued at once.
 */
export function createJobUpdatesFeed({
  read,
  logger,
  clock = () => new Date(),
  tickMs = UPDATES_TICK_MS,
  settleMs = UPDATES_SETTLE_MS,
  pageSize = UPDATES_PAGE,
  timers = REAL_TIMERS,
}: JobUpdatesFeedDeps): JobUpdatesFeed {
  const pollers = new Map<string, Poller>();
  let closed = false;

  const horizon = (): Date => new Date(clock().getTime() - settleMs);

  function schedule(poller: Poller, ms: number): void {
    if (poller.reading || poller.timer !== undefined) return;
    poller.timer = timers.set(() => {
      poller.timer = undefined;
      void pass(poller);
    }, ms);
  }

  function retire(poller: Poller): void {
    if (poller.timer !== undefined) timers.clear(poller.timer);
    poller.timer = undefined;
    if (pollers.get(poller.organizationId) === poller) pollers.delete(poller.organizationId);
  }

  /** One follower's failure (a broken socket) must not stop the others'. */
  function notify(poller: Poller, subscription: Subscription, call: () => void): boolean {
    try {
      call();
      return true;
    } catch (error) {
      logger.warn({ err: error, organizationId: poller.organizationId }, 'job updates follower failed; dropping it');
      poller.subscriptions.delete(subscription);
      return false;
    }
  }

  function endAll(poller: Poller, reason: 'failed' | 'closed'): void {
    retire(poller);
    const subscriptions = [...poller.subscriptions];
    poller.subscriptions.clear();
    for (const subscription of subscriptions) notify(poller, subscription, () => subscription.follower.end(reason));
  }

  async function pass(poller: Poller): Promise<void> {
    if (poller.subscriptions.size === 0) return retire(poller);
    let from: ChangePosition | undefined;
    for (const { position } of poller.subscriptions) if (from === undefined || comparePositions(position, from) < 0) from = position;
    const upTo = horizon();
    let rows: JobSummaryRow[] = [];
    let watermark: ChangePosition = from!;
    const horizonPosition: ChangePosition = { at: upTo.getTime(), id: null };
    // Nothing can be read when every follower is at the horizon already (or past it: a cursor from a faster clock).
    if (comparePositions(from!, horizonPosition) < 0) {
      poller.reading = true;
      try {
        rows = await read(poller.organizationId, from!, upTo, pageSize);
      } catch (error) {
        poller.reading = false;
        if (pollers.get(poller.organizationId) !== poller) return;
        logger.warn({ err: error, organizationId: poller.organizationId }, 'reading job updates failed; ending their streams (clients resume with ?after)');
        endAll(poller, 'failed');
        return;
      }
      poller.reading = false;
      if (pollers.get(poller.organizationId) !== poller) return;
      // A full page may leave rows unread: the watermark is the last row read; otherwise everything up to the horizon.
      watermark = rows.length >= pageSize ? positionOf(rows.at(-1)!) : horizonPosition;
    }

    let behind = false;
    for (const subscription of [...poller.subscriptions]) {
      if (!poller.subscriptions.has(subscription)) continue;
      if (comparePositions(subscription.position, from!) < 0) {
        behind = true;
        continue;
      }
      const fresh = rows.filter((row) => comparePositions(positionOf(row), subscription.position) > 0);
      subscription.position = later(subscription.position, watermark);
      const position = subscription.position;
      notify(poller, subscription, () => subscription.follower.advance(fresh, position));
    }
    if (poller.subscriptions.size === 0) return retire(poller);
    schedule(poller, behind || rows.length >= pageSize ? 0 : tickMs);
  }

  return {
    now: () => ({ at: horizon().getTime(), id: null }),

    follow(organizationId, after, follower) {
      if (closed) {
        follower.end('closed');
        return () => {};
      }
      let poller = pollers.get(organizationId);
      if (poller === undefined) {
        poller = { organizationId, subscriptions: new Set(), timer: undefined, reading: false };
        pollers.set(organizationId, poller);
        schedule(poller, 0);
      }
      const subscription: Subscription = { position: after, follower };
      poller.subscriptions.add(subscription);
      const owner = poller;
      return () => {
        owner.subscriptions.delete(subscription);
        if (owner.subscriptions.size === 0) retire(owner);
      };
    },

    size() {
      let followers = 0;
      for (const poller of pollers.values()) followers += poller.subscriptions.size;
      return { organizations: pollers.size, followers };
    },

    close() {
      closed = true;
      for (const poller of [...pollers.values()]) endAll(poller, 'closed');
    },
  };
}
