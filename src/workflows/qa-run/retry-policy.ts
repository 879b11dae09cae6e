import { failureKind, type QueueRunContext, type RetryPolicy } from '../../queue/index.js';

/** A browser that will not start or a database that drops out is retried twice, then the job is errored. */
export const QA_RUN_RETRY: RetryPolicy = { baseDelayMs: 2_000, factor: 2, maxDelayMs: 30_000, maxRetries: 2, jitter: 0.2 };

/**
 * Whether a failed attempt is the run's last: the same judgement as the queue's retry policy (operational failures
 * are retried until the last attempt; anything else is final). An attempt stopped by the worker's shutdown is never
 * final: the run is handed back.
 */
export function isFinalFailure(error: unknown, context: Pick<QueueRunContext, 'attempt' | 'signal'>, retry: RetryPolicy): boolean {
  return !context.signal.aborted && (failureKind(error) !== 'operational' || context.attempt > retry.maxRetries);
}
