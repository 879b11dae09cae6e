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

/** User errors (bad input, a payload that fails its schema) and bugs we raised ourselves are final; operational ones back off. */
export function retryStrategy(policy: RetryPolicy = DEFAULT_RETRY_POLICY): BackoffStrategy {
  return when(
    (context) => failureKind(context.error) === 'operational',
    exponential({
      delay: policy.baseDelayMs,
      factor: policy.factor,
      maxDelay: policy.maxDelayMs,
      maxRetries: policy.maxRetries,
      jitter: policy.jitter,
    }),
  );
}
