import type { ChannelBindings, ChannelTarget } from '../../src/jobs/chat/channel-bindings.js';
import type { ChatInbox, StoredChatDelivery } from '../../src/jobs/chat/chat-inbox.js';
import type { ChatWorkspaces, ChatWorkspaceView } from '../../src/jobs/chat/chat-workspaces.js';
import type { NotificationOutbox, ThreadJob } from '../../src/jobs/notification-outbox.js';
import type { CheckService } from '../../src/jobs/check-service.js';
import type { JobService } from '../../src/jobs/job-service.js';
import type { Logger } from '../../src/logger.js';
import type { SlackPoster } from '../slack/poster.js';

/** A stored delivery, with what handling it has already decided (`settledAt`, `reply`) and done (`repliedAt`). */
export type StoredChatEvent = StoredChatDelivery;

/** One message of the bot's in a conversation. */
export interface ChatReply {
  channelId: string;
  /** The thread to answer in; null posts at the top of the channel (a slash command's first answer). */
  threadTs: string | null;
  text: string;
  blocks?: Record<string, unknown>[];
  /** Slack message metadata that lets the message be found again when the answer to its post was lost. */
  tag?: MessageTag;
}

/** Message metadata (`event_type`, `event_payload`) the bot marks a message with, to find it again. */
export interface MessageTag {
  eventType: string;
  eventPayload: Record<string, string>;
}

export type { ChannelTarget, ChatWorkspaceView as ChatWorkspace };

/** The job core's chat use cases (src/jobs), as the conversation uses them. */
export interface ConversationDeps {
  events: Pick<ChatInbox, 'load' | 'settle' | 'markReplied' | 'opening' | 'startOpening' | 'recordOpening'>;
  workspaces: Pick<ChatWorkspaces, 'find'>;
  bindings: ChannelBindings;
  threads: Pick<NotificationOutbox, 'inThread'>;
  jobs: Pick<JobService, 'create' | 'answer' | 'cancel' | 'get' | 'disputeFindings' | 'madeFor'>;
  checks: Pick<CheckService, 'list' | 'get'>;
  /** The token for a workspace with none of its own (single-workspace mode), if configured. */
  defaultBotToken: string | null;
  /** Posts as the bot of that token. */
  poster(token: string): SlackPoster;
  /** The service's public address, for links in replies. */
  publicBaseUrl: string;
  logger: Logger;
}

export type { ThreadJob };
