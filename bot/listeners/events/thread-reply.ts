import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

/**
 * A person's reply in a thread (`message.channels` and friends): the answers to a job's questions arrive this way.
 * Only plain human replies inside a thread are kept; edits, joins, bot posts and top-level chatter are dropped here,
 * before anything is stored. A reply that also mentions the bot arrives as an `app_mention` too; the handler keeps
 * the mention and drops this copy.
 */
export function register(app: App, { inbox, logger }: ListenerDeps): void {
  app.event('message', async ({ event, body }) => {
    if (event.subtype !== undefined || 'bot_id' in event && event.bot_id) return;
    if (!('thread_ts' in event) || !event.thread_ts || event.thread_ts === event.ts) return;
    const outcome = await inbox.accept({ eventId: body.event_id, teamId: body.team_id, kind: 'thread_reply', payload: body as unknown as Record<string, unknown> });
    logger.debug({ eventId: body.event_id, outcome }, 'chat thread reply received');
  });
}
