import type { z } from 'zod';
import type { Logger } from '../logger.js';
import type { RetryPolicy } from './retry-policy.js';

/** What a queue job handler gets besides its payload, for one run (attempt) of the job. */
export interface QueueRunContext {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  logger: Logger;
  /** Aborted when the worker gives up on the run (shutdown past its grace period). */
  signal: AbortSignal;
  /** Extends the lock of a long step (Agenda's `touch`); call it well within the lock lifetime. */
  touch(progress?: number): Promise<void>;
}

/** What a handler returns to be run again later: the same queue job (same id and payload), due at `runAgainAt`. */
export interface QueueRunAgain {
  runAgainAt: Date;
}

/**
 * A kind of queued work: its name, the zod schema its payload must satisfy (checked when it is enqueued and
 * again when it is picked up, since stored payloads outlive deploys), and its handler.
 */
export interface QueueJobDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  payload: Schema;
  /**
   * Runs the job. A handler that returns `{ runAgainAt }` has the same queue job run again at that time (a delivery
   * that polls until its work is over) instead of completing; one that returns nothing completes.
   */
  handle(payload: z.output<Schema>, context: QueueRunContext): Promise<void | QueueRunAgain>;
  /** Runs of this job one worker process may run at once (default: the worker's concurrency). */
  concurrency?: number;
  /**
   * A short job (a chat reply, a progress edit) that must not wait behind browser runs: it runs in the queue's
   * light slots (`LIGHT_JOB_SLOTS` beyond the worker's concurrency), at most that many at once.
   */
  light?: boolean;
  /**
   * Housekeeping that runs every this many ms (a purge, a sweep): the worker saves it on start as Agenda's `single`
   * job (`every()`: one row for every process of the database), due at once when it is new; a later start keeps the
   * next run already planned, so frequent restarts do not keep pushing it back. Its payload is `{}`.
   */
  repeatEveryMs?: number;
  /** Lock lifetime override for long jobs (default: the queue's). */
  lockLifetimeMs?: number;
  priority?: number;
  retry?: RetryPolicy;
}

export function defineQueueJob<Schema extends z.ZodType>(definition: QueueJobDefinition<Schema>): QueueJobDefinition<Schema> {
  return definition;
}
