import { codehostError } from '../../codehost/codehost-client.js';
import { ErrorCode } from '../../core/errors.js';
import { DeliveryFailed } from '../errors.js';

/**
 * A code-host failure as the delivery's retry decision: rate limited waits for the code host's Retry-After (or the
 * delivery's back-off when it gave none); 5xx or no answer is retried with back-off; refused credentials and a
 * refused request (a deleted PR or comment: 404, 410, 422) never succeed by trying again, so the delivery stops and
 * records why.
 */
export function codehostDeliveryFailure(error: unknown, what: string): DeliveryFailed {
  if (error instanceof DeliveryFailed) return error;
  const coded = codehostError(error, what);
  switch (coded.code) {
    case ErrorCode.CodehostRateLimited: {
      const seconds = Number(coded.details?.retryAfterSeconds);
      return new DeliveryFailed(coded.message, { retryable: true, retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined, cause: coded });
    }
    case ErrorCode.CodehostUnavailable:
      return new DeliveryFailed(coded.message, { retryable: true, cause: coded });
    case ErrorCode.CodehostUnauthorized:
    case ErrorCode.CodehostRequestFailed:
    case ErrorCode.CodehostNotConfigured:
      return new DeliveryFailed(coded.message, { retryable: false, cause: coded });
    default:
      return new DeliveryFailed(coded.message, { retryable: true, cause: coded });
  }
}
