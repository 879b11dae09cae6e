import type { App, BlockButtonAction } from '@slack/bolt';
import { ANSWER_ACTION } from '../../blocks/actions.js';
import type { ListenerDeps } from '../deps.js';

/**
 * The Yes / No buttons under a yes-or-no side-effect question. The click is acknowledged at once; the answer goes
 * through the same clarification use case as a typed reply, in the `chat-event` job.
 */
export function register(app: App, { inbox, logger }: ListenerDeps): void {
  app.action<BlockButtonAction>(ANSWER_ACTION, async ({ ack, body }) => {
    await ack();
    const teamId = body.team?.id ?? body.user.team_id ?? '';
    const eventId = `act:${teamId}:${body.trigger_id}`;
    const outcome = await inbox.accept({ eventId, teamId, kind: 'answer_button', payload: body as unknown as Record<string, unknown> });
    logger.debug({ eventId, outcome }, 'chat answer button received');
  });
}
