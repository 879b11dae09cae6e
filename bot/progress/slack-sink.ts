/**
 * The chat channel's ProgressSink: a job's progress as one bot message in its Slack thread, posted once and then
 * edited. The WebClient never retries or waits on its own (`retries: 0`, `rejectRateLimitedCalls`): a failure is
 * mapped to DeliveryFailed and the notify-delivery queue job decides when to try again, so no request path and no
 * browser run ever waits on Slack.
 */
import type { KnownBlock, Logger as SlackLogger, WebAPICallResult, WebClient } from '@slack/web-api';
import type { ChatChannelContext } from '../../src/core/channel-context.js';
import type { DeliveryTarget, ProgressSink } from '../../src/notify/progress-sink.js';
import { DeliveryFailed } from '../../src/notify/errors.js';
import type { ProgressView } from '../../src/notify/progress-view.js';
import { progressMessage } from '../blocks/progress.js';
import { createSlackClients, deliveryFailure, slackErrorOf, type SlackClients } from '../slack/web-client.js';

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

/** Pages of a thread read to find a lost message (200 replies a page). */
const RECOVER_PAGES = 5;

interface ThreadMessage {
  ts?: string;
  bot_id?: string;
  metadata?: { event_type?: string; event_payload?: { job_id?: unknown } };
}

export class SlackProgressSink implements ProgressSink<ChatChannelContext> {
  readonly #options: SlackSinkOptions;
  /** One client per token: each keeps its own request queue. */
  readonly #clients: SlackClients;

  constructor(options: SlackSinkOptions) {
    this.#options = options;
    this.#clients = createSlackClients({ apiUrl: options.apiUrl, timeoutMs: options.timeoutMs, slackLogger: options.slackLogger });
  }

  async deliver(target: DeliveryTarget<ChatChannelContext>, view: ProgressView, handle: string | null): Promise<{ handle: string }> {
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

  async recover(target: DeliveryTarget<ChatChannelContext>, jobId: string): Promise<string | null> {
    const client = await this.#client(target);
    const { channelId, threadTs } = target.context;
    let cursor: string | undefined;
    for (let page = 0; page < RECOVER_PAGES; page += 1) {
      const result = (await this.#call(() =>
        client.conversations.replies({ channel: channelId, ts: threadTs, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) }).catch((error: unknown) => {
          // Slack answers thread_not_found for a thread with no reply yet (and for a root it cannot see): then
          // there is no message of ours in it to find, and the post goes ahead.
          if (slackErrorOf(error) === 'thread_not_found') return { ok: true, messages: [] };
          throw error;
        }),
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

  async #client(target: DeliveryTarget<ChatChannelContext>): Promise<WebClient> {
    const token = await this.#options.tokenFor(target.context.teamId, target.organizationId);
    if (token === null) {
      throw new DeliveryFailed(`Slack workspace ${target.context.teamId} is not connected to the job's organization (or has no bot token)`, { retryable: false });
    }
    return this.#clients.clientFor(token);
  }

  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw deliveryFailure(error);
    }
  }
}
