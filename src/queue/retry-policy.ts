import { exponential, when, type BackoffStrategy } from 'agenda';
import { AppError, type ErrorKind } from '../core/errors.js';

export interface RetryPolicy {
  /** First retry delay. */
  baseDelayMs: number;
  /** Multiplier per attempt. */
  factor: number;
  maxDelayMs: number;
  /** Retries after the first failure; 0 disables retrying. */
  maxRetries: number;
  /** 0..1: spread of random jitter, so retries of many jobs do not arrive together. */
  jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 1_000,
  factor: 2,
  maxDelayMs: 5 * 60_000,
  maxRetries: 5,
  jitter: 0.2,
};

/**
 * The kind of a job failure. AppErrors carry theirs. Anything else is treated as operational: a worker cannot
 * tell a bug from a dropped connection, and a bounded number of retries costs little either way.
 */
export function failureKind(error: unknown): ErrorKind {
  return error instanceof AppError ? error.kind : 'operational';
}

/**
 * How long the failed call's server asked us to wait (an AppError's `details.retryAfterMs`: Slack's and the code
 * host's `Retry-After`), if it said.
 */
export function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof AppError)) return undefined;
  const value = error.details?.retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * User errors (bad input, a payload that fails its schema) and bugs we raised ourselves are final; operational ones
 * back off, and never sooner than a `Retry-After` the failed call was given.
 */
export function retryStrategy(policy: RetryPolicy = DEFAULT_RETRY_POLICY): BackoffStrategy {
  const backoff = when(
    (context) => failureKind(context.error) === 'operational',
    exponential({
      delay: policy.baseDelayMs,
      factor: policy.factor,
      maxDelay: policy.maxDelayMs,
      maxRetries: policy.maxRetries,
      jitter: policy.jitter,
    }),
  );
  return (context) => {
    const delay = backoff(context);
    const asked = retryAfterMs(context.error);
    return delay === null || asked === undefined ? delay : Math.max(delay, asked);
  };
}
