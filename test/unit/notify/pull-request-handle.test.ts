import { describe, expect, it } from '@jest/globals';
import { codehostDeliveryFailure } from '../../../src/notify/codehost/codehost-delivery-failure.js';
import { formatPullRequestHandle, HANDLE_MAX, parsePullRequestHandle } from '../../../src/notify/codehost/pull-request-handle.js';

/** What @octokit/request throws for an HTTP error answer (read by shape, as codehostError reads it). */
const httpError = (status: number, headers: Record<string, string> = {}) => Object.assign(new Error(`HTTP ${status}`), { name: 'HttpError', status, response: { headers } });

describe('pull-request handle', () => {
  it('keeps the comment and check-run ids, either of them alone, in 128 characters', () => {
    const both = formatPullRequestHandle({ commentId: 2_147_483_648_123, checkRunId: 9_007_199_254_740_991 });
    expect(both).toBe('comment=2147483648123;check=9007199254740991');
    expect(both.length).toBeLessThanOrEqual(HANDLE_MAX);
    expect(parsePullRequestHandle(both)).toEqual({ commentId: 2_147_483_648_123, checkRunId: 9_007_199_254_740_991 });
    expect(parsePullRequestHandle('comment=5')).toEqual({ commentId: 5, checkRunId: null });
    expect(parsePullRequestHandle('check=6')).toEqual({ commentId: null, checkRunId: 6 });
  });

  it('refuses what is not one of its handles (a Slack ts, nothing, junk, an unsafe number)', () => {
    for (const handle of ['1700000000.000100', '', ';', 'comment=;check=1', 'check=1;comment=2', 'comment=99999999999999999999']) {
      expect(parsePullRequestHandle(handle)).toBeNull();
    }
  });
});

describe('code-host failures as delivery decisions', () => {
  it('429 waits for Retry-After; a rate-limit 403 too; 5xx and no answer are retried with back-off', () => {
    expect(codehostDeliveryFailure(httpError(429, { 'retry-after': '7' }), 'post')).toMatchObject({ retryable: true, retryAfterMs: 7_000, code: 'notify.delivery_retryable' });
    expect(codehostDeliveryFailure(httpError(403, { 'x-ratelimit-remaining': '0' }), 'post')).toMatchObject({ retryable: true, retryAfterMs: undefined });
    // A secondary rate limit: 403 with Retry-After while requests are left.
    expect(codehostDeliveryFailure(httpError(403, { 'x-ratelimit-remaining': '4000', 'retry-after': '60' }), 'post')).toMatchObject({ retryable: true, retryAfterMs: 60_000 });
    expect(codehostDeliveryFailure(httpError(502), 'post')).toMatchObject({ retryable: true, retryAfterMs: undefined });
    expect(codehostDeliveryFailure(new TypeError('fetch failed'), 'post')).toMatchObject({ retryable: true });
  });

  it('refused credentials, a deleted PR or comment (404, 410) and a refused body (422) stop the delivery', () => {
    for (const status of [401, 403, 404, 410, 422]) {
      expect(codehostDeliveryFailure(httpError(status), 'edit the PR comment')).toMatchObject({ retryable: false, code: 'notify.delivery_refused' });
    }
    expect(codehostDeliveryFailure(httpError(404), 'edit the PR comment').message).toBe('The code host refused the request (edit the PR comment): 404');
  });
});
