import { z } from 'zod';

/**
 * Where a job reports its progress. `channelContext` is opaque to the API (any object); a context whose `channel` is
 * one of these is notified: the job gets an outbox row and a message kept up to date in that conversation. The
 * pull-request channel (`codehost`) joins this list when it lands.
 */
export const NOTIFIED_CHANNELS = ['chat'] as const;
export type NotifiedChannel = (typeof NOTIFIED_CHANNELS)[number];

/** Slack's ids: a team `T…`, a channel `C…`/`G…`/`D…`, a user `U…`/`W…`; a message `ts` `1700000000.000100`. */
const slackId = z.string().regex(/^[A-Z0-9]{2,32}$/);

/** A chat job's channelContext (design: chat-design.md), as the bot writes it. */
export const chatChannelContext = z.object({
  channel: z.literal('chat'),
  provider: z.literal('slack'),
  teamId: slackId,
  channelId: slackId,
  threadTs: z.string().regex(/^\d{1,12}\.\d{1,8}$/),
  userId: slackId,
});
export type ChatChannelContext = z.infer<typeof chatChannelContext>;

/** The context of a notified job, by channel. */
export type NotifiedContext = ChatChannelContext;

/** The thread a chat job belongs to, as one string (at most 200 characters): the bot finds a thread's jobs by it. */
export function chatThreadKey(context: Pick<ChatChannelContext, 'teamId' | 'channelId' | 'threadTs'>): string {
  return `slack:${context.teamId}:${context.channelId}:${context.threadTs}`;
}

/**
 * The notified context in a job's channelContext, or null when the job reports nowhere (no context, or a channel
 * that is not notified). A context that names a notified channel but does not fit its shape is an error: the caller
 * wrote something the channel cannot deliver to.
 */
export function notifiedContextOf(channelContext: unknown): NotifiedContext | null {
  if (typeof channelContext !== 'object' || channelContext === null) return null;
  const channel = (channelContext as { channel?: unknown }).channel;
  if (!(NOTIFIED_CHANNELS as readonly unknown[]).includes(channel)) return null;
  return chatChannelContext.parse(channelContext);
}

/** The conversation key of a notified context (what `job_notifications.thread_key` holds). */
export function threadKeyOf(context: NotifiedContext): string {
  return chatThreadKey(context);
}
