import type { Agenda, Job } from 'agenda';
import { z } from 'zod';
import { AppError, operationalError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import type { QueueJobDefinition } from './job-definition.js';
import { DEFAULT_RETRY_POLICY, failureKind, retryStrategy } from './retry-policy.js';

/** A run in this process: a shutdown past its grace period aborts it through `controller`. */
export interface RunningJob {
  controller: AbortController;
}

/** Runs of this process, by job id. */
export type RunningJobs = Map<string, RunningJob>;

export function invalidPayload(jobName: string, error: z.ZodError): AppError {
  return new AppError({
    kind: 'user',
    code: 'queue.invalid_payload',
    message: `Invalid payload for job "${jobName}": ${z.prettifyError(error).replaceAll('\n', '; ')}`,
  });
}

/**
 * Defines one job kind on Agenda. The payload is parsed before the handler runs; a payload that fails its
 * schema fails the job with a readable reason and is not retried. A throwing handler never takes the worker
 * down: Agenda records the failure, and the retry policy decides by the error's kind.
 */
export function registerJob(
  agenda: Agenda,
  definition: QueueJobDefinition,
  running: RunningJobs,
  logger: Logger,
  worker: { readonly stopping: boolean },
): void {
  agenda.define(
    definition.name,
    async (job: Job<unknown>) => {
      const jobId = String(job.attrs._id);
      const attempt = (job.attrs.failCount ?? 0) + 1;
      const log = logger.child({ job: definition.name, jobId, attempt });
      if (worker.stopping) {
        // Claimed just as the worker began to stop: fail it so Agenda schedules it again (not a success).
        throw operationalError('queue.worker_stopping', 'The worker was shutting down; the job will be retried');
      }
      const parsed = definition.payload.safeParse(job.attrs.data);
      if (!parsed.success) {
        const error = invalidPayload(definition.name, parsed.error);
        log.warn({ code: error.code }, error.message);
        throw error;
      }
      const controller = new AbortController();
      const started = performance.now();
      const run = definition.handle(parsed.data, {
        jobId,
        attempt,
        logger: log,
        signal: controller.signal,
        touch: (progress?: number) => job.touch(progress),
      });
      running.set(jobId, { controller });
      try {
        await run;
        // A handler that returns after an abort did not finish its work: record a failure (retried), not a success.
        if (controller.signal.aborted) {
          throw operationalError('queue.run_abandoned', 'The worker shut down before the run finished; it will be retried');
        }
        log.debug({ ms: Math.round(performance.now() - started) }, 'job done');
      } catch (error) {
        log.warn({ err: error, kind: failureKind(error), ms: Math.round(performance.now() - started) }, 'job failed');
        throw error;
      } finally {
        running.delete(jobId);
      }
    },
    {
      concurrency: definition.concurrency,
      lockLifetime: definition.lockLifetimeMs,
      priority: definition.priority,
      backoff: retryStrategy(definition.retry ?? DEFAULT_RETRY_POLICY),
    },
  );
}
