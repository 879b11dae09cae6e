import type { Job } from 'agenda';
import { z } from 'zod';
import { AppError, ErrorCode } from '../core/errors.js';
import type { Logger } from '../logger.js';
import type { Queue } from './create-queue.js';
import type { QueueJobDefinition } from './job-definition.js';
import { DEFAULT_RETRY_POLICY, failureKind, retryStrategy } from './retry-policy.js';

/** A run in this process: a shutdown past its grace period aborts it through `controller`. */
export interface RunningJob {
  controller: AbortController;
}

/** Runs of this process, by job id. */
export type RunningJobs = Map<string, RunningJob>;

/** Why a run of this process stopped before it finished. */
export const STOP_SHUTDOWN = 'worker shutting down';
export const STOP_LOCK_LOST = 'lock lost to another worker';

export function invalidPayload(jobName: string, error: z.ZodError): AppError {
  return new AppError({
    kind: 'user',
    code: ErrorCode.QueueInvalidPayload,
    message: `Invalid payload for job "${jobName}": ${z.prettifyError(error).replaceAll('\n', '; ')}`,
  });
}

/** Thrown to Agenda for a run this process gave up on; its state save is skipped (see `handBack`). */
class RunGivenUp extends Error {}

/**
 * Defines one job kind on Agenda. The payload is parsed before the handler runs; a payload that fails its
 * schema fails the job with a readable reason and is not retried. A throwing handler never takes the worker
 * down: Agenda records the failure, and the retry policy decides by the error's kind.
 *
 * The lock is renewed from the moment the handler starts until it settles (every third of the lock lifetime), so
 * a run never looks dead while it is alive; a renewal that finds the lock gone (another worker took the job over)
 * aborts the run. A run still going when the worker shuts down, or claimed just as it began to, is handed back
 * as a crash would be, but at once and without counting a failure.
 */
export function registerJob(
  queue: Queue,
  definition: QueueJobDefinition,
  running: RunningJobs,
  logger: Logger,
  worker: { readonly stopping: boolean },
): void {
  const { agenda, backend, owner } = queue;
  const lockLifetimeMs = definition.lockLifetimeMs ?? agenda.attrs.defaultLockLifetime;
  agenda.define(
    definition.name,
    async (job: Job<unknown>) => {
      const jobId = String(job.attrs._id);
      const attempt = (job.attrs.failCount ?? 0) + 1;
      const log = logger.child({ job: definition.name, jobId, attempt });
      if (worker.stopping) {
        await backend.repository.handBack(jobId, owner);
        queue.telemetry.queueHandBack(definition.name);
        throw new RunGivenUp('claimed as the worker began to stop; handed back');
      }
      const parsed = definition.payload.safeParse(job.attrs.data);
      if (!parsed.success) {
        const error = invalidPayload(definition.name, parsed.error);
        log.warn({ code: error.code }, error.message);
        throw error;
      }
      const controller = new AbortController();
      running.set(jobId, { controller });
      const renew = async (): Promise<void> => {
        const held = await backend.repository.renewLock(jobId, owner);
        if (held) job.attrs.lockedAt = new Date(); // Agenda's own liveness check reads the local copy
        else if (!controller.signal.aborted) controller.abort(STOP_LOCK_LOST);
      };
      const heartbeat = setInterval(() => void renew().catch((error: unknown) => log.warn({ err: error }, 'could not renew the lock')), Math.max(100, Math.floor(lockLifetimeMs / 3)));
      // A run stopped from outside (shutdown, lock lost) holds no lock worth renewing, even if its handler never
      // returns; and the renewal alone never keeps a stopping process alive.
      heartbeat.unref();
      controller.signal.addEventListener('abort', () => clearInterval(heartbeat), { once: true });
      const started = performance.now();
      try {
        try {
          const outcome = await definition.handle(parsed.data, {
            jobId,
            attempt,
            logger: log,
            signal: controller.signal,
            touch: async () => {
              await renew();
              if (controller.signal.reason === STOP_LOCK_LOST) throw new RunGivenUp(STOP_LOCK_LOST);
            },
          });
          // Agenda saves the job's state after the handler (`nextRunAt` included): a one-time job due again is kept.
          if (outcome && !controller.signal.aborted) job.attrs.nextRunAt = outcome.runAgainAt;
        } catch (error) {
          if (!controller.signal.aborted) {
            log.warn({ err: error, kind: failureKind(error), ms: Math.round(performance.now() - started) }, 'job failed');
            throw error;
          }
        } finally {
          clearInterval(heartbeat);
        }
        if (!controller.signal.aborted) {
          log.debug({ ms: Math.round(performance.now() - started) }, 'job done');
          return;
        }
        // Stopped from outside: the run did not finish, whatever the handler did; that is no failure of the job.
        if (controller.signal.reason === STOP_LOCK_LOST) {
          backend.repository.abandon(jobId);
          log.warn('another worker took this run over; stopped without writing');
        } else {
          const held = await backend.repository.handBack(jobId, owner);
          queue.telemetry.queueHandBack(definition.name);
          log.info({ held }, 'run handed back for another worker to resume');
        }
        throw new RunGivenUp(String(controller.signal.reason));
      } finally {
        running.delete(jobId);
      }
    },
    {
      // Each kind locks no more than it may run (see createQueue); a light kind gets the light slots.
      concurrency: definition.light ? queue.lightSlots : definition.concurrency,
      ...(definition.light ? { lockLimit: queue.lightSlots } : definition.concurrency ? { lockLimit: definition.concurrency } : {}),
      lockLifetime: definition.lockLifetimeMs,
      priority: definition.priority,
      backoff: retryStrategy(definition.retry ?? DEFAULT_RETRY_POLICY),
    },
  );
}
