import type { WebClient } from '@slack/web-api';
import type { ChatReply } from '../conversation/deps.js';
import { deliveryFailure } from './web-client.js';

/** Posts the bot's messages in one workspace. */
export interface SlackPoster {
  /** Posts a message and returns its `ts`. A failure is a DeliveryFailed (retryable or not). */
  post(reply: ChatReply): Promise<string>;
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
        throw deliveryFailure(error);
      }
    },
  };
}
