import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

/**
 * `@qa …` anywhere the app is: Bolt has already acknowledged the event (Events API requests are acked before
 * listeners run), so this only stores it for the `chat-event` job. Bot messages (the app's own included) never
 * start anything.
 */
export function register(app: App, { inbox, logger }: ListenerDeps): void {
  app.event('app_mention', async ({ event, body }) => {
    if (event.bot_id !== undefined || event.subtype !== undefined) return;
    const outcome = await inbox.accept({ eventId: body.event_id, teamId: body.team_id, kind: 'app_mention', payload: body as unknown as Record<string, unknown> });
    logger.debug({ eventId: body.event_id, outcome }, 'chat mention received');
  });
}
