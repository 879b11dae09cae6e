import { AppError, ErrorCode } from '../core/errors.js';

/**
 * A channel did not take a progress message. `retryable`: it may next time (rate limited, 5xx, the network); the
 * delivery is rescheduled after `retryAfterMs` (the channel's Retry-After) or its own back-off. Not retryable: it
 * never will (the channel is gone, the bot was removed, the token revoked); the delivery records why and stops.
 */
export class DeliveryFailed extends AppError {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { retryable: boolean; retryAfterMs?: number; cause?: unknown }) {
    super({
      kind: options.retryable ? 'operational' : 'user',
      code: options.retryable ? ErrorCode.NotifyDeliveryRetryable : ErrorCode.NotifyDeliveryRefused,
      message,
      cause: options.cause,
      details: options.retryAfterMs === undefined ? undefined : { retryAfterMs: options.retryAfterMs },
    });
    this.name = 'DeliveryFailed';
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}
