import { z } from 'zod';

/**
 * Where a job reports its progress. `channelContext` is opaque to the API (any object); a context whose `channel` is
 * one of these is notified: the job gets an outbox row and a message kept up to date in that conversation (a chat
 * thread; a pull request's comment and check run).
 */
export const NOTIFIED_CHANNELS = ['chat', 'codehost'] as const;
export type NotifiedChannel = (typeof NOTIFIED_CHANNELS)[number];

/** Bounds of the selection note a pull-request run carries (`selectionNote` keeps within them). */
export const SELECTION_TEXT_MAX = 600;
export const SELECTION_WHY_MAX = 10;

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

/** A code-host owner or repository name as the code host spells it (GitHub: letters, digits, `.`, `_`, `-`). */
const codehostName = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/);

/**
 * A pull-request job's channelContext, as the code-host handlers write it: the installation that reports on it, the
 * repository and pull request, and the head commit the job runs at. `requestedBy` is the login of a commenter who
 * asked (`/qa …`); absent for runs the pull request itself started.
 */
export const codehostChannelContext = z.object({
  channel: z.literal('codehost'),
  provider: z.literal('codehost'),
  installationId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  owner: codehostName,
  repo: codehostName,
  pullNumber: z.number().int().positive().max(2_147_483_647),
  headSha: z.string().regex(/^[0-9a-f]{40}$/),
  requestedBy: z.string().regex(/^[A-Za-z0-9-]{1,39}(\[bot\])?$/).optional(),
  /** Why a run the pull request started was selected, and how many checks were skipped (src/core/check-selection.ts). */
  selection: z
    .object({
      mode: z.enum(['all', 'touched']),
      reason: z.string().max(SELECTION_TEXT_MAX),
      why: z.array(z.string().max(SELECTION_TEXT_MAX)).max(SELECTION_WHY_MAX),
      ran: z.number().int().min(0),
      skipped: z.number().int().min(0),
    })
    .optional(),
});
export type CodehostChannelContext = z.infer<typeof codehostChannelContext>;

/** The context of a notified job, by channel. */
export type NotifiedContext = ChatChannelContext | CodehostChannelContext;

const notifiedContext = z.discriminatedUnion('channel', [chatChannelContext, codehostChannelContext]);

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
  return notifiedContext.parse(channelContext);
}

/**
 * The pull request a code-host job belongs to, as one string: the conversation of `/qa` comments. Names are folded to
 * lower case, as the code host treats them.
 */
export function pullRequestKey(context: Pick<CodehostChannelContext, 'owner' | 'repo' | 'pullNumber'>): string {
  return `codehost:${context.owner.toLowerCase()}/${context.repo.toLowerCase()}#${context.pullNumber}`;
}

/** The conversation key of a notified context (what `job_notifications.thread_key` holds). */
export function threadKeyOf(context: NotifiedContext): string {
  return context.channel === 'chat' ? chatThreadKey(context) : pullRequestKey(context);
}
