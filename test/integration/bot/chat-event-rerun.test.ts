import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { ANSWER_YES } from '../../../bot/blocks/actions.js';
import type { ConversationDeps } from '../../../bot/conversation/deps.js';
import { handleChatEvent } from '../../../bot/conversation/handle-event.js';
import { OPENING_EVENT_TYPE } from '../../../bot/conversation/run-command.js';
import { createSlackPoster } from '../../../bot/slack/poster.js';
import { createSlackClients } from '../../../bot/slack/web-client.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createChannelBindings } from '../../../src/jobs/chat/channel-bindings.js';
import { chatJobKey, createChatInbox, type ChatDelivery, type ChatInbox } from '../../../src/jobs/chat/chat-inbox.js';
import { createChatWorkspaces } from '../../../src/jobs/chat/chat-workspaces.js';
import { createCheckService } from '../../../src/jobs/check-service.js';
import { createNotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import type { Principal } from '../../../src/core/principal.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { JobNotification } from '../../../src/store/entities/job-notification.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { chatEventStarter } from '../../../src/workflows/chat-event-starter.js';
import { FAKE_WORKSPACE, startFakeSlack, type FakeSlack } from '../../fakes/slack-api.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { appMention, blockActionsPayload, channelMessage, eventCallback, slashCommandPayload, slackTs } from '../../support/slack-requests.js';
import { jobServiceOn, REVIEW_TASK, RUNNABLE_TASK } from '../notify/notify-fixtures.js';

const { teamId, channelId, userId, botUserId, botToken } = FAKE_WORKSPACE;

/** What the process that died between starting the job and settling the delivery got to do: everything before it. */
class Crash extends Error {}

/**
 * The `chat-event` job run again after its process died between creating the job and settling the delivery (the
 * queue retries it): the rerun finds the job the first run made, under the delivery's key, and settles with it. One
 * job, one opening message, one answer, on both dialects.
 */
forEachDialect('chat-event rerun after a crash before settling', (dialect) => {
  const store = useTestStore(dialect);
  let slack: FakeSlack;
  let principal: Principal;
  let inbox: ChatInbox;
  let deps: ConversationDeps;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack();
    slack.addToken(botToken, FAKE_WORKSPACE);
  });
  afterAll(async () => {
    await slack.stop();
  });
  beforeEach(async () => {
    slack.reset();
    const { organization, principal: admin } = await createApiKey(store(), 'acme');
    principal = admin;
    await insertRepository(store(), organization.id);
    const services = jobServiceOn(store());
    const writes: WriteBatch = createWriteBatch(store());
    closers.push(services.close, () => writes.close());
    inbox = createChatInbox({ dataSource: store(), writes, starter: chatEventStarter(services.queue) });
    const workspaces = createChatWorkspaces({ dataSource: store(), tokenKey: undefined });
    await workspaces.connect({ teamId, organizationSlug: 'acme' });
    const bindings = createChannelBindings(store());
    await bindings.bind(principal, { teamId, channelId, repository: 'acme/shop', boundBy: userId });
    const clients = createSlackClients({ apiUrl: slack.url });
    deps = {
      events: inbox,
      workspaces,
      bindings,
      threads: createNotificationOutbox(store()),
      jobs: services.jobs,
      checks: createCheckService(store()),
      defaultBotToken: botToken,
      poster: (token) => createSlackPoster(clients.clientFor(token)),
      publicBaseUrl: 'https://qa.example.test',
      logger: silentLogger(),
    };
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /** The handler with a process that dies where settle would be written. */
  const crashingBeforeSettle = (): ConversationDeps => ({
    ...deps,
    events: {
      ...inbox,
      settle: async () => {
        throw new Crash('the process died before settling');
      },
    },
  });

  const mention = (text: string, ts = slackTs()): ChatDelivery => ({
    eventId: `Ev${ts.replace('.', '')}`,
    teamId,
    kind: 'app_mention',
    payload: eventCallback(appMention({ user: userId, text: `<@${botUserId}> ${text}`, channel: channelId, teamId, ts }), { teamId }),
  });

  async function handleAfterCrash(delivery: ChatDelivery): Promise<void> {
    expect(await inbox.accept(delivery)).toBe('accepted');
    await expect(handleChatEvent(delivery.eventId, crashingBeforeSettle())).rejects.toThrow(Crash);
    expect(await inbox.load(delivery.eventId)).toMatchObject({ settledAt: null });
    await handleChatEvent(delivery.eventId, deps);
  }

  const jobs = () => store().getRepository(Job).find({ order: { createdAt: 'ASC' } });

  it('a mention: the rerun finds the job the first run started and settles with it; one job, one workflow, one progress message', async () => {
    const delivery = mention(RUNNABLE_TASK);

    await handleAfterCrash(delivery);

    const made = await jobs();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ status: 'queued', task: RUNNABLE_TASK, sourceKey: chatJobKey(delivery.eventId), trigger: 'chat' });
    expect(made[0]!.workflowId).not.toBeNull();
    const queuedRuns = (await store().query('SELECT COUNT(*) AS n FROM agenda_jobs WHERE name = ?', ['qa-run'])) as { n: number | string }[];
    expect(Number(queuedRuns[0]!.n)).toBe(1);
    expect(await store().getRepository(JobNotification).count()).toBe(1);
    // A started job answers with its progress message (notify), not with a reply: nothing was posted twice.
    expect(await inbox.load(delivery.eventId)).toMatchObject({ settledAt: expect.any(Date), reply: null });
    expect(slack.callsOf('chat.postMessage')).toHaveLength(0);

    // A third run (the queue retrying once more) changes nothing either.
    await handleChatEvent(delivery.eventId, deps);
    expect(await jobs()).toHaveLength(1);
  });

  it('a slash command: the rerun reuses the opening message it posted and the job hanging from it; one opening, one job', async () => {
    const command = slashCommandPayload({ teamId, channelId, userId, text: RUNNABLE_TASK });
    const delivery: ChatDelivery = { eventId: `cmd:${teamId}:${command.trigger_id}`, teamId, kind: 'slash_command', payload: command };

    await handleAfterCrash(delivery);

    const openings = slack.callsOf('chat.postMessage');
    expect(openings).toHaveLength(1);
    // The opening was recorded before the crash, so neither run had to look for it.
    expect(slack.callsOf('conversations.history')).toHaveLength(0);
    const [opening] = slack.messages(channelId);
    expect(opening).toMatchObject({ text: expect.stringContaining(RUNNABLE_TASK) });
    expect(slack.messages(channelId)).toHaveLength(1);
    expect(await inbox.opening(delivery.eventId)).toBe(opening!.ts);
    const made = await jobs();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ sourceKey: chatJobKey(delivery.eventId), channelContext: expect.objectContaining({ threadTs: opening!.ts }) });
    expect(await inbox.load(delivery.eventId)).toMatchObject({ settledAt: expect.any(Date), reply: null });
  });

  it('a slash command whose first run died between posting the opening and recording it: the rerun finds it by its metadata', async () => {
    const command = slashCommandPayload({ teamId, channelId, userId, text: RUNNABLE_TASK });
    const delivery: ChatDelivery = { eventId: `cmd:${teamId}:${command.trigger_id}`, teamId, kind: 'slash_command', payload: command };
    const clients = createSlackClients({ apiUrl: slack.url });
    const diesAfterPosting: ConversationDeps = {
      ...deps,
      poster: (token) => {
        const real = createSlackPoster(clients.clientFor(token));
        return {
          ...real,
          post: async (reply) => {
            await real.post(reply);
            throw new Crash('the process died before it read Slack’s answer');
          },
        };
      },
    };
    expect(await inbox.accept(delivery)).toBe('accepted');
    await expect(handleChatEvent(delivery.eventId, diesAfterPosting)).rejects.toThrow(Crash);
    expect(await inbox.opening(delivery.eventId)).toBeNull();
    expect(await jobs()).toHaveLength(0);

    await handleChatEvent(delivery.eventId, deps);

    const [opening, ...more] = slack.messages(channelId);
    expect(more).toHaveLength(0);
    expect(opening).toMatchObject({ metadata: { event_type: OPENING_EVENT_TYPE, event_payload: { event_id: delivery.eventId } } });
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(slack.callsOf('conversations.history').map((call) => call.outcome)).toEqual(['ok']);
    expect(await inbox.opening(delivery.eventId)).toBe(opening!.ts);
    const made = await jobs();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ channelContext: expect.objectContaining({ threadTs: opening!.ts }) });
  });

  it('an answer in the thread: the rerun finds the child job the first run made; one child, one job.answered on the parent', async () => {
    const question = mention(REVIEW_TASK);
    expect(await inbox.accept(question)).toBe('accepted');
    await handleChatEvent(question.eventId, deps);
    const [parent] = await jobs();
    expect(parent).toMatchObject({ status: 'review_required' });
    const threadTs = (question.payload as { event: { ts: string } }).event.ts;
    const replyTs = slackTs();
    const answer: ChatDelivery = {
      eventId: `Ev${replyTs.replace('.', '')}`,
      teamId,
      kind: 'thread_reply',
      payload: eventCallback(channelMessage({ user: userId, text: 'yes', channel: channelId, teamId, ts: replyTs, threadTs }), { teamId }),
    };

    await handleAfterCrash(answer);

    const made = await jobs();
    const children = made.filter((job) => job.parentJobId === parent!.id);
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ sourceKey: chatJobKey(answer.eventId) });
    const answered = await store().getRepository(JobEvent).find({ where: { jobId: parent!.id, type: 'job.answered' } });
    expect(answered.map((event) => event.data)).toEqual([{ childJobId: children[0]!.id }]);
    expect(made).toHaveLength(2);
  });

  it('a Yes button: the rerun does not call the clicked buttons stale; one child job and no reply', async () => {
    const question = mention(REVIEW_TASK);
    expect(await inbox.accept(question)).toBe('accepted');
    await handleChatEvent(question.eventId, deps);
    const [parent] = await jobs();
    expect(parent?.resolution?.questions).toHaveLength(1);
    const threadTs = (question.payload as { event: { ts: string } }).event.ts;
    const click = blockActionsPayload({ teamId, channelId, userId, messageTs: slackTs(), threadTs, actions: [{ actionId: ANSWER_YES, value: parent!.id }] });
    const delivery: ChatDelivery = { eventId: `act:${teamId}:${click.trigger_id}`, teamId, kind: 'answer_button', payload: click };

    await handleAfterCrash(delivery);

    const children = (await jobs()).filter((job) => job.parentJobId === parent!.id);
    expect(children.map((job) => job.sourceKey)).toEqual([chatJobKey(delivery.eventId)]);
    expect(await inbox.load(delivery.eventId)).toMatchObject({ settledAt: expect.any(Date), reply: null });
    expect(slack.callsOf('chat.postMessage')).toHaveLength(0);
  });

  it('two runs of the same delivery at once (a queue lock that expired) start one job between them', async () => {
    const delivery = mention(RUNNABLE_TASK);
    expect(await inbox.accept(delivery)).toBe('accepted');

    await Promise.all([handleChatEvent(delivery.eventId, deps), handleChatEvent(delivery.eventId, deps)]);

    expect(await jobs()).toHaveLength(1);
    expect(await store().getRepository(JobNotification).count()).toBe(1);
  });
});
