import { describe, expect, it } from '@jest/globals';
import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from '@slack/web-api';
import { deliveryFailure } from '../../../bot/slack/web-client.js';

/** Which Slack failures the delivery retries and which stop it (the errors are the WebClient's own classes). */
describe('deliveryFailure', () => {
  it('retries a rate limit after its Retry-After, a 5xx, a timeout and a network failure', () => {
    expect(deliveryFailure(new WebAPIRateLimitedError(30))).toMatchObject({ retryable: true, retryAfterMs: 30_000, code: 'notify.delivery_retryable' });
    expect(deliveryFailure(new WebAPIHTTPError(502, 'Bad Gateway', {}))).toMatchObject({ retryable: true, retryAfterMs: undefined });
    expect(deliveryFailure(new WebAPIHTTPError(408, 'Request Timeout', {}))).toMatchObject({ retryable: true });
    expect(deliveryFailure(new WebAPIRequestError(new Error('ECONNRESET')))).toMatchObject({ retryable: true });
    expect(deliveryFailure(new WebAPIPlatformError({ ok: false, error: 'internal_error' }))).toMatchObject({ retryable: true });
    expect(deliveryFailure(new Error('Retry header did not contain a valid timeout'))).toMatchObject({ retryable: true });
  });

  it.each(['channel_not_found', 'not_in_channel', 'invalid_auth', 'account_inactive', 'token_revoked', 'message_not_found', 'invalid_blocks'])(
    'stops at %s, naming it',
    (error) => {
      const failure = deliveryFailure(new WebAPIPlatformError({ ok: false, error }));
      expect(failure).toMatchObject({ retryable: false, code: 'notify.delivery_refused', kind: 'user' });
      expect(failure.message).toContain(error);
    },
  );

  it('stops at a 4xx other than a timeout', () => {
    expect(deliveryFailure(new WebAPIHTTPError(404, 'Not Found', {}))).toMatchObject({ retryable: false });
  });
});
