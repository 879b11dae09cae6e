/**
 * The chat channel's ProgressSink: a job's progress as one bot message in its Slack thread, posted once and then
 * edited. The WebClient never retries or waits on its own (`retries: 0`, `rejectRateLimitedCalls`): a failure is
 * mapped to DeliveryFailed and the notify-delivery queue job decides when to try again, so no request path and no
 * browser run ever waits on Slack.
 */
import { LogLevel, WebClient, type KnownBlock, type Logger as SlackLogger, type WebAPICallResult } from '@slack/web-api';
import type { DeliveryTarget, ProgressSink } from '../../src/notify/progress-sink.js';
import { DeliveryFailed } from '../../src/notify/errors.js';
import type { ProgressView } from '../../src/notify/progress-view.js';
import { progressMessage } from '../blocks/progress.js';

/** The message metadata that marks a job's progress message, so it can be found again after a crash. */
export const PROGRESS_EVENT_TYPE = 'qa_job_progress';

export interface SlackSinkOptions {
  /**
   * The bot token for a workspace, only if that workspace is connected to the organization that owns the job; null
   * otherwise (a channelContext can name any team: the job's organization must own it).
   */
  tokenFor(teamId: string, organizationId: string): Promise<string | null>;
  /** CHAT_API_URL: Slack's Web API base, ending in `/api/` (tests: the fake Slack API). */
  apiUrl?: string;
  /** One call may take this long before it counts as a network failure (retried). */
  timeoutMs?: number;
  /**
   * Where the WebClient logs (default: its console logger at `error`). Failures are reported by the delivery, which
   * logs each with the job; the client's own warning per failed request would say it twice.
   */
  slackLogger?: SlackLogger;
}

/** Slack's `error` strings that a later call may not get again; any other platform error is permanent. */
const RETRYABLE_ERRORS = new Set(['ratelimited', 'rate_limited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'team_added_to_org']);
/** Pages of a thread read to find a lost message (200 replies a page). */
const RECOVER_PAGES = 5;

interface ThreadMessage {
  ts?: string;
  bot_id?: string;
  metadata?: { event_type?: string; event_payload?: { job_id?: unknown } };
}

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
    const reported = (error as { data?: { error?: unknown } }).data?.error;
    const slackError = typeof reported === 'string' ? reported : 'unknown_error';
    return new DeliveryFailed(`Slack refused the call: ${slackError}`, { retryable: RETRYABLE_ERRORS.has(slackError), cause: error });
  }
  // slack_webapi_request_error (the network, a timeout), a 429 without a usable Retry-After, anything unforeseen.
  return new DeliveryFailed(`Slack could not be reached: ${message}`, { retryable: true, cause: error });
}

export class SlackProgressSink implements ProgressSink {
  readonly #options: SlackSinkOptions;
  /** One client per token: each keeps its own request queue. */
  readonly #clients = new Map<string, WebClient>();

  constructor(options: SlackSinkOptions) {
    this.#options = options;
  }

  async deliver(target: DeliveryTarget, view: ProgressView, handle: string | null): Promise<{ handle: string }> {
    const client = await this.#client(target);
    const { channelId, threadTs } = target.context;
    const message = progressMessage(view);
    // The builders write plain objects (as every builder in bot/blocks does); their shapes are Block Kit's.
    const blocks = message.blocks as unknown as KnownBlock[];
    const metadata = { event_type: PROGRESS_EVENT_TYPE, event_payload: { job_id: view.jobId } };
    const result = await this.#call<WebAPICallResult & { ts?: string }>(() =>
      handle === null
        ? client.chat.postMessage({ channel: channelId, thread_ts: threadTs, text: message.text, blocks, metadata, unfurl_links: false, unfurl_media: false })
        : client.chat.update({ channel: channelId, ts: handle, text: message.text, blocks, metadata }),
    );
    const ts = result.ts ?? handle;
    if (!ts) throw new DeliveryFailed('Slack took the message but returned no ts', { retryable: true });
    return { handle: ts };
  }

  async recover(target: DeliveryTarget, jobId: string): Promise<string | null> {
    const client = await this.#client(target);
    const { channelId, threadTs } = target.context;
    let cursor: string | undefined;
    for (let page = 0; page < RECOVER_PAGES; page += 1) {
      const result = (await this.#call(() =>
        client.conversations.replies({ channel: channelId, ts: threadTs, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) }),
      )) as WebAPICallResult & { messages?: ThreadMessage[] };
      const found = (result.messages ?? []).find(
        (message) => message.metadata?.event_type === PROGRESS_EVENT_TYPE && message.metadata.event_payload?.job_id === jobId && message.ts,
      );
      if (found?.ts) return found.ts;
      cursor = result.response_metadata?.next_cursor || undefined;
      if (!cursor) return null;
    }
    return null;
  }

  async #client(target: DeliveryTarget): Promise<WebClient> {
    const token = await this.#options.tokenFor(target.context.teamId, target.organizationId);
    if (token === null) {
      throw new DeliveryFailed(`Slack workspace ${target.context.teamId} is not connected to the job's organization (or has no bot token)`, { retryable: false });
    }
    let client = this.#clients.get(token);
    if (!client) {
      client = new WebClient(token, {
        ...(this.#options.apiUrl ? { slackApiUrl: this.#options.apiUrl } : {}),
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: this.#options.timeoutMs ?? 10_000,
        ...(this.#options.slackLogger ? { logger: this.#options.slackLogger } : { logLevel: LogLevel.ERROR }),
      });
      this.#clients.set(token, client);
    }
    return client;
  }

  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw deliveryFailure(error);
    }
  }
}
