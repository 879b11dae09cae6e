import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

/** The slash command name in manifest.yml. */
export const SLASH_COMMAND = '/qa';

/**
 * `/qa <words>`: the same words as a mention. The ack goes out first, with a short private note (Slack shows an
 * error to the person if nothing answers within 3 s); the answer itself is posted in the channel by the
 * `chat-event` job, and becomes the thread of any job it starts.
 */
export function register(app: App, { inbox, logger }: ListenerDeps): void {
  app.command(SLASH_COMMAND, async ({ ack, body }) => {
    await ack();
    const eventId = `cmd:${body.team_id}:${body.trigger_id}`;
    const outcome = await inbox.accept({ eventId, teamId: body.team_id, kind: 'slash_command', payload: body as unknown as Record<string, unknown> });
    logger.debug({ eventId, outcome }, 'chat slash command received');
  });
}
