import { expect } from '@jest/globals';
import { CHAT_WEBHOOK_PATH } from '../../bot/app.js';
import { FAKE_WORKSPACE, type FakeSlack, type StoredMessage } from '../fakes/slack-api.js';
import { appMention, blockActions, channelMessage, eventCallback, FORM_CONTENT_TYPE, signSlackRequest, slackTs, slashCommand } from './slack-requests.js';

/** Who talks, where, and to which running service (the defaults are the fake's workspace). */
export interface ChatPersonOptions {
  /** The service's base URL (`RunningChatService.base`). */
  base: string;
  slack: FakeSlack;
  signingSecret: string;
  teamId?: string;
  channelId?: string;
  userId?: string;
  botUserId?: string;
}

/**
 * A person of a workspace talking to the bot over real signed HTTP, as Slack would deliver it: mentions, thread
 * replies, `/qa` commands and button clicks; plus readers of what the bot posted in the fake Slack. Every sender
 * expects Slack's ack (200).
 */
export interface ChatPerson {
  /** Posts an Events API delivery; returns the HTTP status. */
  deliver(event: Record<string, unknown>, eventId?: string): Promise<number>;
  /** `@qa <text>` in a new thread (its own ts) or in `threadTs`; returns the thread. */
  mention(text: string, threadTs?: string): Promise<string>;
  /** A reply in a thread, without a mention. */
  reply(text: string, threadTs: string): Promise<void>;
  /** `/qa <text>` in the channel. */
  slash(text: string): Promise<void>;
  /** Clicks a button of a bot message (`message.blocks` carries its `action_id` and `value`). */
  click(message: StoredMessage, actionId: string, value: string): Promise<void>;
  /** The bot's messages in a thread (replies and the progress messages), oldest first. */
  botMessages(threadTs: string): StoredMessage[];
  /** The bot's messages at the top of the channel (no thread), oldest first. */
  topLevel(): StoredMessage[];
  /** The bot's progress messages (one per job) in a thread. */
  progressOf(threadTs: string): StoredMessage[];
  /** Waits for the bot's first message in a thread that `matches` (default: any), and returns it. */
  answerIn(threadTs: string, matches?: (message: StoredMessage) => boolean, timeoutMs?: number): Promise<StoredMessage>;
}

/** The id of the job a progress message is about (its `qa_job_progress` metadata). */
export const jobIdOf = (message: StoredMessage): string => String((message.metadata?.event_payload as { job_id?: string } | undefined)?.job_id);

export function chatPerson(options: ChatPersonOptions): ChatPerson {
  const { base, slack, signingSecret } = options;
  const teamId = options.teamId ?? FAKE_WORKSPACE.teamId;
  const channelId = options.channelId ?? FAKE_WORKSPACE.channelId;
  const userId = options.userId ?? FAKE_WORKSPACE.userId;
  const botUserId = options.botUserId ?? FAKE_WORKSPACE.botUserId;

  async function post(body: string, contentType: string): Promise<number> {
    const response = await fetch(`${base}${CHAT_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': contentType, ...signSlackRequest(signingSecret, body) }, body });
    await response.text();
    return response.status;
  }

  /** Replies only: a thread's root (the opening message of a slash command) is at the top of the channel. */
  const botMessages = (threadTs: string) =>
    slack.messages(channelId).filter((message) => message.thread_ts === threadTs && message.ts !== threadTs && message.user === botUserId);

  const person: ChatPerson = {
    deliver: (event, eventId) => post(JSON.stringify(eventCallback(event, { teamId, botUserId, ...(eventId ? { eventId } : {}) })), 'application/json'),
    async mention(text, threadTs) {
      const ts = slackTs();
      expect(await person.deliver(appMention({ user: userId, text: `<@${botUserId}> ${text}`, channel: channelId, teamId, ts, ...(threadTs ? { threadTs } : {}) }))).toBe(200);
      return threadTs ?? ts;
    },
    async reply(text, threadTs) {
      expect(await person.deliver(channelMessage({ user: userId, text, channel: channelId, teamId, threadTs }))).toBe(200);
    },
    async slash(text) {
      expect(await post(slashCommand({ teamId, channelId, userId, text }), FORM_CONTENT_TYPE)).toBe(200);
    },
    async click(message, actionId, value) {
      const body = blockActions({ teamId, channelId, userId, messageTs: message.ts, ...(message.thread_ts ? { threadTs: message.thread_ts } : {}), actions: [{ actionId, value }] });
      expect(await post(body, FORM_CONTENT_TYPE)).toBe(200);
    },
    botMessages,
    topLevel: () => slack.messages(channelId).filter((message) => (message.thread_ts ?? message.ts) === message.ts && message.user === botUserId),
    progressOf: (threadTs) => botMessages(threadTs).filter((message) => message.metadata?.event_type === 'qa_job_progress'),
    answerIn: (threadTs, matches = () => true, timeoutMs = 20_000) => slack.waitFor(() => botMessages(threadTs).find(matches), timeoutMs),
  };
  return person;
}
