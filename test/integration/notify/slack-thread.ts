import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { SlackProgressSink } from '../../../bot/progress/slack-sink.js';
import type { ChatChannelContext } from '../../../src/core/channel-context.js';
import type { Principal } from '../../../src/core/principal.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/slack-api.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { recordingSlackLogger } from '../../support/slack-logger.js';

export const BOT_USER = 'U0QABOT';

/**
 * Inside a describe block: the fake Slack API for the block, a workspace whose bot token is `token`, and before each
 * test an organization with a repository and the thread's opening mention (conversations.replies needs the root).
 */
export function useSlackThread(store: () => DataSource, thread: ChatChannelContext, token: string) {
  const world = {} as { slack: FakeSlack; principal: Principal; repositoryId: string };
  beforeAll(async () => {
    world.slack = await startFakeSlack();
    world.slack.addToken(token, { teamId: thread.teamId, botUserId: BOT_USER });
  });
  afterAll(async () => {
    await world.slack.stop();
  });
  beforeEach(async () => {
    world.slack.reset();
    world.slack.addMessage({ channel: thread.channelId, ts: thread.threadTs, text: `<@${BOT_USER}> check the pricing page`, user: thread.userId, teamId: thread.teamId });
    const issued = await createApiKey(store(), 'acme');
    world.principal = issued.principal;
    world.repositoryId = await insertRepository(store(), issued.organization.id);
  });
  return {
    world,
    /** The Slack sink on the fake; only the organization that connected the workspace gets its token. */
    sink: () =>
      new SlackProgressSink({
        apiUrl: world.slack.url,
        slackLogger: recordingSlackLogger(),
        tokenFor: async (teamId, organizationId) => (teamId === thread.teamId && organizationId === world.principal.organizationId ? token : null),
      }),
    /** The bot's messages in the thread's channel. */
    botMessages: () => world.slack.messages(thread.channelId).filter((message) => message.user === BOT_USER),
  };
}
