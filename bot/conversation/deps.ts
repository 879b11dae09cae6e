import type { Principal } from '../../src/core/principal.js';
import type { CheckService } from '../../src/jobs/check-service.js';
import type { JobService } from '../../src/jobs/job-service.js';
import type { Logger } from '../../src/logger.js';
import type { ChatEventKind } from '../chat-inbox.js';
import type { SlackPoster } from '../slack/poster.js';

/** A stored delivery (src/jobs/chat-inbox.ts), with what handling it has already decided and done. */
export interface StoredChatEvent {
  eventId: string;
  teamId: string;
  kind: ChatEventKind;
  payload: Record<string, unknown>;
  /** Set once the event's effect (a job started, a binding saved) is committed: a rerun does not repeat it. */
  settledAt: Date | null;
  /** What the bot says about it, decided when it settled; posted once (`repliedAt`). */
  reply: ChatReply | null;
  repliedAt: Date | null;
}

/** One message of the bot's in a conversation. */
export interface ChatReply {
  channelId: string;
  /** The thread to answer in; null posts at the top of the channel (a slash command's first answer). */
  threadTs: string | null;
  text: string;
  blocks?: Record<string, unknown>[];
}

export interface ChatEventStore {
  load(eventId: string): Promise<StoredChatEvent | null>;
  /** Records the decided reply (or none) in one commit with nothing else: from here on, handling is only posting. */
  settle(eventId: string, reply: ChatReply | null): Promise<void>;
  markReplied(eventId: string): Promise<void>;
}

export interface ChatWorkspace {
  teamId: string;
  /** Null until an administrator connects the workspace to an organization (`qa chat connect`). */
  organizationId: string | null;
  botUserId: string | null;
  /** The installation's token (OAuth), or null when the single-workspace CHAT_BOT_TOKEN serves the workspace. */
  botToken: string | null;
}

export interface ChannelTarget {
  repositoryId: string;
  repository: string;
  baseUrl: string;
  networkAllowlist: string[];
}

/** The job core's chat use cases (src/jobs), as the conversation uses them. */
export interface ConversationDeps {
  events: ChatEventStore;
  workspaces: { find(teamId: string): Promise<ChatWorkspace | null> };
  bindings: {
    bind(principal: Principal, input: { teamId: string; channelId: string; repository: string; baseUrl?: string; boundBy: string }): Promise<ChannelTarget>;
    find(principal: Principal, teamId: string, channelId: string): Promise<ChannelTarget | null>;
    /** The organization's repository for a base URL given inline: the one whose baseUrl has that origin, else its only one. */
    forUrl(principal: Principal, baseUrl: string): Promise<ChannelTarget | null>;
    /** A repository of the organization by id, as a target at its own base URL (404 for another organization's). */
    forRepository(principal: Principal, repositoryId: string): Promise<ChannelTarget>;
  };
  threads: { inThread(threadKey: string): Promise<ThreadJob[]> };
  jobs: Pick<JobService, 'create' | 'answer' | 'cancel' | 'get' | 'disputeFindings'>;
  checks: Pick<CheckService, 'list'>;
  /** The token for a workspace with none of its own (single-workspace mode), if configured. */
  defaultBotToken: string | null;
  /** The bot user of the default token (from `auth.test`), to drop replies that mention the bot twice over. */
  poster(token: string): SlackPoster;
  /** The service's public address, for links in replies. */
  publicBaseUrl: string;
  logger: Logger;
}

export interface ThreadJob {
  id: string;
  status: string;
  resolution: { questions: string[] } | null;
  parentJobId: string | null;
  organizationId: string;
  createdAt: Date;
}
