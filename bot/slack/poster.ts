import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError, WebClient } from '@slack/web-api';
import { AppError, ErrorCode } from '../../src/core/errors.js';
import type { ChatReply } from '../conversation/deps.js';

/** Posts the bot's messages in one workspace. */
export interface SlackPoster {
  /** Posts a message and returns its `ts`. */
  post(reply: ChatReply): Promise<string>;
}

/**
 * Slack's answers that will not change by asking again: the bot was removed, the channel is gone or archived, the
 * token was revoked. Anything else (`ratelimited`, `internal_error`, `fatal_error`, `service_unavailable`, …) may.
 */
const FINAL_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'not_authed',
  'missing_scope',
  'msg_too_long',
  'invalid_blocks',
  'no_text',
  'restricted_action',
  'message_not_found',
  'cant_update_message',
]);

/**
 * A Web API failure as the service's error: a final refusal is a `user`-kind error (the queue does not retry it); a
 * 429, a 5xx or a network failure is operational, with Slack's Retry-After when it gave one, and the queue retries
 * it with back-off. Never retried in place: the WebClient is built with `retries: 0` and `rejectRateLimitedCalls`.
 */
export function slackFailure(error: unknown, method: string): AppError {
  if (error instanceof WebAPIRateLimitedError) {
    return new AppError({ kind: 'operational', code: ErrorCode.ChatDeliveryFailed, status: 503, message: `Slack rate-limited ${method}; retry after ${error.retryAfter} s`, details: { method, retryAfterMs: error.retryAfter * 1000 }, cause: error });
  }
  if (error instanceof WebAPIPlatformError && FINAL_ERRORS.has(error.data.error)) {
    return new AppError({ kind: 'user', code: ErrorCode.ChatDeliveryRefused, message: `Slack refused ${method}: ${error.data.error}`, details: { method, slackError: error.data.error }, cause: error });
  }
  const reason =
    error instanceof WebAPIPlatformError ? error.data.error : error instanceof WebAPIHTTPError ? `HTTP ${error.statusCode}` : error instanceof WebAPIRequestError ? error.original.message : String(error);
  return new AppError({ kind: 'operational', code: ErrorCode.ChatDeliveryFailed, status: 503, message: `Slack's ${method} failed: ${reason}`, details: { method }, cause: error });
}

/** A Web API client that never retries or waits by itself: the queue owns retries, so no request path blocks on Slack. */
export function slackClient(token: string, apiUrl: string): WebClient {
  return new WebClient(token, { slackApiUrl: apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
}

export function createSlackPoster(client: WebClient): SlackPoster {
  return {
    async post(reply) {
      try {
        const answer = await client.chat.postMessage({
          channel: reply.channelId,
          text: reply.text,
          ...(reply.threadTs ? { thread_ts: reply.threadTs } : {}),
          ...(reply.blocks ? { blocks: reply.blocks as never } : {}),
          unfurl_links: false,
        });
        return answer.ts ?? '';
      } catch (error) {
        throw slackFailure(error, 'chat.postMessage');
      }
    },
  };
}
