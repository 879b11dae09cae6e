import type { WebClient } from '@slack/web-api';
import type { ChatReply, MessageTag } from '../conversation/deps.js';
import { deliveryFailure } from './web-client.js';

/** How far back `findTagged` reads a channel: the message it looks for was posted by a run that died minutes ago. */
const FIND_PAGES = 3;
const FIND_PAGE_SIZE = 200;

interface ChannelMessage {
  ts?: string;
  thread_ts?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

/** Posts the bot's messages in one workspace. */
export interface SlackPoster {
  /** Posts a message and returns its `ts`. A failure is a DeliveryFailed (retryable or not). */
  post(reply: ChatReply): Promise<string>;
  /**
   * The `ts` of a message at the top of the channel that carries `tag` as its metadata (posted by a run whose answer
   * was lost), or null. Reads the channel's recent history (`channels:history` and its kin).
   */
  findTagged(channelId: string, tag: MessageTag): Promise<string | null>;
}

export function createSlackPoster(client: WebClient): SlackPoster {
  const call = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw deliveryFailure(error);
    }
  };
  const carries = (message: ChannelMessage, tag: MessageTag) =>
    message.metadata?.event_type === tag.eventType &&
    Object.entries(tag.eventPayload).every(([key, value]) => message.metadata?.event_payload?.[key] === value);

  return {
    async post(reply) {
      const answer = await call(() =>
        client.chat.postMessage({
          channel: reply.channelId,
          text: reply.text,
          ...(reply.threadTs ? { thread_ts: reply.threadTs } : {}),
          ...(reply.blocks ? { blocks: reply.blocks as never } : {}),
          ...(reply.tag ? { metadata: { event_type: reply.tag.eventType, event_payload: reply.tag.eventPayload } } : {}),
          unfurl_links: false,
        }),
      );
      return answer.ts ?? '';
    },

    async findTagged(channelId, tag) {
      let cursor: string | undefined;
      for (let page = 0; page < FIND_PAGES; page += 1) {
        const result = (await call(() =>
          client.conversations.history({ channel: channelId, include_all_metadata: true, limit: FIND_PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
        )) as { messages?: ChannelMessage[]; response_metadata?: { next_cursor?: string } };
        const found = (result.messages ?? []).find((message) => message.ts && carries(message, tag));
        if (found?.ts) return found.ts;
        cursor = result.response_metadata?.next_cursor || undefined;
        if (!cursor) return null;
      }
      return null;
    },
  };
}
