/**
 * Slack's Web API for the bot: clients that never retry or wait on their own (`retries: 0`,
 * `rejectRateLimitedCalls`), and one mapping of their failures. The queue jobs (`chat-event`, `notify-delivery`)
 * decide when to try again, so no request path and no browser run ever waits on Slack.
 */
import { LogLevel, WebClient, type Logger as SlackLogger } from '@slack/web-api';
import { DeliveryFailed } from '../../src/notify/errors.js';

/** Slack's `error` strings that a later call may not get again; any other platform error is permanent. */
const RETRYABLE_ERRORS = new Set(['ratelimited', 'rate_limited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'team_added_to_org']);

/**
 * A Web API failure as DeliveryFailed: rate limited (Retry-After kept), HTTP 5xx, the network and Slack's own
 * transient errors are retryable; everything else (channel_not_found, not_in_channel, invalid_auth,
 * account_inactive, token_revoked, message_not_found, a message Slack will not take) is permanent.
 */
export function deliveryFailure(error: unknown): DeliveryFailed {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'slack_webapi_rate_limited_error') {
    const retryAfter = Number((error as { retryAfter?: unknown }).retryAfter);
    return new DeliveryFailed(`Slack rate limited the call: ${message}`, { retryable: true, retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined, cause: error });
  }
  if (code === 'slack_webapi_http_error') {
    const status = Number((error as { statusCode?: unknown }).statusCode);
    return new DeliveryFailed(`Slack answered HTTP ${status}`, { retryable: status >= 500 || status === 408, cause: error });
  }
  if (code === 'slack_webapi_platform_error') {
    const slackError = slackErrorOf(error) ?? 'unknown_error';
    return new DeliveryFailed(`Slack refused the call: ${slackError}`, { retryable: RETRYABLE_ERRORS.has(slackError), cause: error });
  }
  // slack_webapi_request_error (the network, a timeout), a 429 without a usable Retry-After, anything unforeseen.
  return new DeliveryFailed(`Slack could not be reached: ${message}`, { retryable: true, cause: error });
}

/** Slack's `error` string of a platform error (`{ ok: false, error }`), or undefined for any other failure. */
export function slackErrorOf(error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'slack_webapi_platform_error') return undefined;
  const reported = (error as { data?: { error?: unknown } }).data?.error;
  return typeof reported === 'string' ? reported : undefined;
}

export interface SlackClientOptions {
  /** CHAT_API_URL: Slack's Web API base, ending in `/api/` (tests: the fake Slack API). */
  apiUrl?: string;
  /** One call may take this long before it counts as a network failure (retried). */
  timeoutMs?: number;
  /** Where the clients log (default: their console logger at `error`). */
  slackLogger?: SlackLogger;
}

export interface SlackClients {
  /** The client of a bot token; one per token, each with its own request queue. */
  clientFor(token: string): WebClient;
}

export function createSlackClients(options: SlackClientOptions): SlackClients {
  const clients = new Map<string, WebClient>();
  return {
    clientFor(token) {
      let client = clients.get(token);
      if (!client) {
        client = new WebClient(token, {
          ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
          retryConfig: { retries: 0 },
          rejectRateLimitedCalls: true,
          timeout: options.timeoutMs ?? 10_000,
          ...(options.slackLogger ? { logger: options.slackLogger } : { logLevel: LogLevel.ERROR }),
        });
        clients.set(token, client);
      }
      return client;
    },
  };
}
