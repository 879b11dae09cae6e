import { describe, expect, it } from '@jest/globals';
import { AppError, ErrorCode } from '../../../src/core/errors.js';
import { retryStrategy, type RetryPolicy } from '../../../src/queue/retry-policy.js';

const policy: RetryPolicy = { baseDelayMs: 1_000, factor: 2, maxDelayMs: 60_000, maxRetries: 3, jitter: 0 };
const context = (error: Error, attempt = 1) => ({ attempt, error, jobName: 'chat-event', jobData: {} });

describe('retryStrategy', () => {
  const strategy = retryStrategy(policy);

  it('backs off exponentially from an operational failure, up to the bound', () => {
    const failure = new AppError({ kind: 'operational', code: ErrorCode.NotifyDeliveryRetryable, message: 'Slack 503' });
    expect(strategy(context(failure, 1))).toBe(1_000);
    expect(strategy(context(failure, 2))).toBe(2_000);
    expect(strategy(context(failure, 4))).toBeNull();
  });

  it('waits at least as long as the failed call was asked to (Retry-After)', () => {
    const limited = new AppError({ kind: 'operational', code: ErrorCode.NotifyDeliveryRetryable, message: 'rate limited', details: { retryAfterMs: 30_000 } });
    expect(strategy(context(limited, 1))).toBe(30_000);
    // A longer back-off than Retry-After stays as it is.
    const short = new AppError({ kind: 'operational', code: ErrorCode.NotifyDeliveryRetryable, message: 'rate limited', details: { retryAfterMs: 500 } });
    expect(strategy(context(short, 2))).toBe(2_000);
  });

  it('does not retry a final failure, whatever Retry-After says', () => {
    const refused = new AppError({ kind: 'user', code: ErrorCode.NotifyDeliveryRefused, message: 'channel_not_found', details: { retryAfterMs: 1_000 } });
    expect(strategy(context(refused, 1))).toBeNull();
  });

  it('treats an error that is not an AppError as operational', () => {
    expect(strategy(context(new Error('socket hang up'), 1))).toBe(1_000);
  });
});
