import { chatThreadKey } from '../../src/core/channel-context.js';

/** Where a request came from and where the bot answers it. */
export interface Conversation {
  /** The stored delivery this turn came from: what the bot does about it is done once under its key (`chatJobKey`). */
  eventId: string;
  teamId: string;
  channelId: string;
  /** The thread the request was made in (a mention starts one at its own ts); null for a slash command. */
  threadTs: string | null;
  userId: string;
  /** The workspace of the person (a Slack Connect channel has people of other workspaces in it). */
  userTeamId: string;
  text: string;
}

/** The key the job core files a thread's jobs under (`channelContext` → notify's `thread_key`). */
export function threadKey(teamId: string, channelId: string, threadTs: string): string {
  return chatThreadKey({ teamId, channelId, threadTs });
}
