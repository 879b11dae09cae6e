import type { Logger } from '../logger.js';
import type { JobEvent } from '../store/entities/job-event.entity.js';
import type { JobProgress } from './job-progress.js';

/**
 * How often a followed job's poller reads new events. Writers in other processes are seen within one tick, so
 * this bounds delivery latency (the bench's goal is p99 under 250 ms); each followed job costs one read per tick,
 * whatever its number of followers.
 */
export const FEED_TICK_MS = 100;

/** Reads a job's events after `after` and whether it is finished (`readJobProgress`); not organization-scoped. */
export type ReadProgress = (jobId: string, after: number) => Promise<JobProgress>;

/** Why a follower's stream ended: the job finished, reading failed (reconnect with `after`), or the feed closed. */
export type FeedEnd = 'finished' | 'failed' | 'closed';

export interface FeedFollower {
  /** New events in index order; each event reaches a follower once. */
  events(events: JobEvent[]): void;
  /** Called once, last; not called after the follower unsubscribed itself. */
  end(reason: FeedEnd): void;
}

/** Timer functions (injectable so tests can run ticks by hand). */
export interface FeedTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface EventFeed {
  /**
   * Follows a job the caller is authorized to read, from after index `after` (the last event it already has).
   * Returns the unsubscribe function; the job's poller stops when its last follower leaves.
   */
  follow(jobId: string, after: number, follower: FeedFollower): () => void;
  /** A writer in this process committed events of `jobId`: read now instead of at the next tick. */
  wake(jobId: string): void;
  /** Followed jobs and followers (metrics, tests). */
  size(): { jobs: number; followers: number };
  /** Ends every stream with `closed` and stops every poller (shutdown, before the HTTP server closes). */
  close(): void;
}

export interface EventFeedDeps {
  read: ReadProgress;
  logger: Logger;
  tickMs?: number;
  timers?: FeedTimers;
}

interface Subscription {
  /** The last index this follower has. */
  last: number;
  follower: FeedFollower;
}

interface Poller {
  jobId: string;
  subscriptions: Set<Subscription>;
  timer: unknown;
  reading: boolean;
  /** Woken while reading: read again at once. */
  again: boolean;
}

const REAL_TIMERS: FeedTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One shared poller per followed job: each tick reads the events after the furthest-behind follower's index (one
 * read, whatever the number of followers) and hands every follower the ones after its own index. A follower that
 * joined while a read was in flight, behind that read's starting index, is skipped by it and served by a read
 * issued at once; so nobody sees a gap or a repeat.
 */
export function createEventFeed({ read, logger, tickMs = FEED_TICK_MS, timers = REAL_TIMERS }: EventFeedDeps): EventFeed {
  const pollers = new Map<string, Poller>();
  let closed = false;

  function schedule(poller: Poller, ms: number): void {
    if (poller.reading || poller.timer !== undefined) return;
    poller.timer = timers.set(() => {
      poller.timer = undefined;
      void tick(poller);
    }, ms);
  }

  function retire(poller: Poller): void {
    if (poller.timer !== undefined) timers.clear(poller.timer);
    poller.timer = undefined;
    if (pollers.get(poller.jobId) === poller) pollers.delete(poller.jobId);
  }

  /** Removes a subscription, telling the follower why when there is a reason; retires the poller when it was the last. */
  function drop(poller: Poller, subscription: Subscription, reason?: FeedEnd): void {
    if (!poller.subscriptions.delete(subscription)) return;
    if (reason !== undefined) notify(poller, () => subscription.follower.end(reason));
    if (poller.subscriptions.size === 0) retire(poller);
  }

  /** One follower's failure (a broken socket) must not stop the others' delivery. */
  function notify(poller: Poller, call: () => void): boolean {
    try {
      call();
      return true;
    } catch (error) {
      logger.warn({ err: error, jobId: poller.jobId }, 'event feed follower failed; dropping it');
      return false;
    }
  }

  function endAll(poller: Poller, reason: FeedEnd): void {
    retire(poller);
    const subscriptions = [...poller.subscriptions];
    poller.subscriptions.clear();
    for (const subscription of subscriptions) notify(poller, () => subscription.follower.end(reason));
  }

  async function tick(poller: Poller): Promise<void> {
    if (poller.subscriptions.size === 0) return retire(poller);
    let from = Number.POSITIVE_INFINITY;
    for (const subscription of poller.subscriptions) from = Math.min(from, subscription.last);
    poller.reading = true;
    poller.again = false;
    let progress: JobProgress;
    try {
      progress = await read(poller.jobId, from);
    } catch (error) {
      poller.reading = false;
      if (pollers.get(poller.jobId) !== poller) return;
      logger.warn({ err: error, jobId: poller.jobId }, 'reading new job events failed; ending its streams (clients resume with ?after)');
      endAll(poller, 'failed');
      return;
    }
    poller.reading = false;
    // Retired while reading (its last follower left, or the feed closed): a newer poller may own the job now.
    if (pollers.get(poller.jobId) !== poller) return;

    let behind = false;
    for (const subscription of [...poller.subscriptions]) {
      if (!poller.subscriptions.has(subscription)) continue; // left during this fan-out
      if (subscription.last < from) {
        behind = true;
        continue;
      }
      const fresh = progress.events.filter((event) => event.seq > subscription.last);
      if (fresh.length > 0) {
        subscription.last = fresh[fresh.length - 1]!.seq;
        if (!notify(poller, () => subscription.follower.events(fresh))) {
          drop(poller, subscription);
          continue;
        }
      }
      if (progress.finished) drop(poller, subscription, 'finished');
    }
    if (pollers.get(poller.jobId) === poller) schedule(poller, behind || poller.again ? 0 : tickMs);
  }

  return {
    follow(jobId, after, follower) {
      if (closed) {
        follower.end('closed');
        return () => {};
      }
      let poller = pollers.get(jobId);
      if (poller === undefined) {
        poller = { jobId, subscriptions: new Set(), timer: undefined, reading: false, again: false };
        pollers.set(jobId, poller);
        schedule(poller, tickMs);
      }
      const subscription: Subscription = { last: after, follower };
      poller.subscriptions.add(subscription);
      const owner = poller;
      return () => drop(owner, subscription);
    },

    wake(jobId) {
      const poller = pollers.get(jobId);
      if (poller === undefined) return;
      if (poller.reading) {
        poller.again = true;
        return;
      }
      if (poller.timer !== undefined) timers.clear(poller.timer);
      poller.timer = undefined;
      schedule(poller, 0);
    },

    size() {
      let followers = 0;
      for (const poller of pollers.values()) followers += poller.subscriptions.size;
      return { jobs: pollers.size, followers };
    },

    close() {
      closed = true;
      for (const poller of [...pollers.values()]) endAll(poller, 'closed');
    },
  };
}
