import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CHAT_WEBHOOK_PATH } from '../../bot/app.js';
import { ANSWER_YES } from '../../bot/blocks/actions.js';
import type { Config } from '../../src/config.js';
import type { EnvelopeType, SendOptions } from '../fakes/socket-mode-server.js';
import { FAKE_WORKSPACE, type FakeSlack, type StoredMessage } from '../fakes/slack-api.js';
import { seedAcmeShop, useChatEndToEnd } from '../support/chat-service.js';
import {
  appMention,
  blockActionsPayload,
  channelMessage,
  eventCallback,
  signSlackRequest,
  slackTs,
  slashCommandPayload,
} from '../support/slack-requests.js';

const { teamId, channelId, userId, botUserId, botToken, appToken } = FAKE_WORKSPACE;
const SECRET = 'e2e-chat-signing-secret';
const ORDER_TASK = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10, check that the total shows $90, check out and place the order';

/**
 * The bot without a public URL (CHAT_APP_TOKEN): the service as `qa start` runs it, connected to a fake Slack whose
 * Socket Mode server pushes every delivery as an envelope and waits for its ack, against the demo shop. The same
 * conversation as over HTTP (test/e2e/chat-conversation.test.ts), through reconnects and a redelivery.
 */
/**
 * The service with `chat` as given, a fake Slack with Socket Mode, the demo shop, and before each test the
 * organization, its shop and the connected workspace (the store is emptied after each test).
 */
function useSocketModeService(chat: Partial<Config['chat']>) {
  const e2e = useChatEndToEnd({
    slack: { socketMode: true },
    prepare: (fake) => {
      fake.addToken(botToken, { teamId, botUserId, teamName: FAKE_WORKSPACE.teamName });
      fake.addAppToken(appToken);
    },
    chat,
  });
  // Socket Mode counts as started once Slack said hello on the socket.
  beforeAll(() => e2e.parts().slack.socket!.waitForConnection(1));
  beforeEach(() => seedAcmeShop(e2e.store(), e2e.parts().demo.url, teamId));
  const count = async (sql: string, params: unknown[] = []) => Number(((await e2e.store().query(sql, params)) as { n: number | string }[])[0]!.n);
  return { ...e2e, count };
}

/** Helpers over one fake Slack: envelopes sent and acked, and the bot's messages read back. */
function conversationOver(slack: FakeSlack) {
  let sent = 0;
  /** Sends an envelope; resolves once the bot acked that very envelope on the socket. */
  async function envelope(type: EnvelopeType, payload: Record<string, unknown>, options: SendOptions = {}): Promise<void> {
    sent += 1;
    const ack = await slack.socket!.send(type, payload, options);
    expect(slack.socket!.received.map((message) => message.envelope_id)).toContain(ack.envelope_id);
  }
  /** Says something to the bot in a new thread (its own ts) or in `threadTs`; returns the thread and the delivery. */
  async function mention(text: string, threadTs?: string) {
    const ts = slackTs();
    const body = eventCallback(appMention({ user: userId, text: `<@${botUserId}> ${text}`, channel: channelId, teamId, ts, ...(threadTs ? { threadTs } : {}) }), { teamId });
    await envelope('events_api', body);
    return { thread: threadTs ?? ts, body };
  }
  const replyInThread = (text: string, threadTs: string) => envelope('events_api', eventCallback(channelMessage({ user: userId, text, channel: channelId, teamId, threadTs }), { teamId }));
  const command = (text: string) => envelope('slash_commands', slashCommandPayload({ teamId, channelId, userId, text }));
  const botMessages = () => slack.messages(channelId).filter((message) => message.user === botUserId);
  const inThread = (threadTs: string) => botMessages().filter((message) => message.thread_ts === threadTs);
  const progressOf = (threadTs: string) => inThread(threadTs).filter((message) => message.metadata?.event_type === 'qa_job_progress');
  return { envelope, mention, replyInThread, command, botMessages, inThread, progressOf, sent: () => sent };
}

const jobIdOf = (message: StoredMessage) => String((message.metadata?.event_payload as { job_id?: string } | undefined)?.job_id);

describe('a chat conversation, end to end over Socket Mode', () => {
  const { store, parts, count } = useSocketModeService({ appToken, botToken });

  it('binds by slash command, asks before a real side effect, survives reconnects and a redelivery, and takes the answer from a button', async () => {
    const { slack, demo, running } = parts();
    const socket = slack.socket!;
    const chat = conversationOver(slack);

    // `/qa use …` binds the channel; the answer goes to the channel itself (a slash command has no thread).
    await chat.command('use acme/shop');
    const bound = await slack.waitFor(() => chat.botMessages().find((message) => message.text.includes('now checks')), 20_000);
    expect(bound.text).toContain('acme/shop');
    expect(bound.thread_ts).toBeUndefined();

    // Slack recycles the host: the bot opens a new connection, and the next delivery arrives on it.
    socket.requestReconnect('refresh_requested');
    await socket.waitForConnection(2, 10_000);

    // A task that would place a real order: the job asks first, in its progress message, with Yes/No buttons.
    const { thread, body: mentionBody } = await chat.mention(ORDER_TASK);
    const asking = await slack.waitFor(() => chat.progressOf(thread).find((message) => /question/i.test(message.text)), 30_000);
    const parentJobId = jobIdOf(asking);
    const buttons = JSON.stringify(asking.blocks ?? []);
    expect(buttons).toContain(ANSWER_YES);

    // Slack redelivers the mention (its ack looked late): acked again, stored once, nothing started twice.
    await chat.envelope('events_api', mentionBody, { retryAttempt: 1, retryReason: 'timeout' });
    expect(await count('SELECT COUNT(*) AS n FROM chat_event_receipts WHERE event_id = ?', [mentionBody.event_id])).toBe(1);

    // Two answers to one question: the bot says what is wrong and starts nothing.
    await chat.replyInThread('yes\nand another line', thread);
    const problem = await slack.waitFor(() => chat.inThread(thread).find((message) => /missing|answer line/i.test(message.text)), 20_000);
    expect(problem.text).toMatch(/question/i);
    // By now the redelivery has long been handled, had it been queued: still one job, one progress message.
    expect(await count('SELECT COUNT(*) AS n FROM jobs')).toBe(1);
    expect(chat.progressOf(thread).map(jobIdOf)).toEqual([parentJobId]);

    // The network drops every connection: the bot reconnects on its own, and the button click still arrives.
    socket.dropConnections();
    await socket.waitForConnection(3, 15_000);
    await chat.envelope(
      'interactive',
      blockActionsPayload({ teamId, channelId, userId, messageTs: asking.ts, threadTs: thread, actions: [{ actionId: ANSWER_YES, value: parentJobId }] }),
    );

    // The linked child job runs in the same thread, its progress message edited to its final state.
    const childMessage = await slack.waitFor(() => chat.progressOf(thread).find((message) => jobIdOf(message) !== parentJobId), 30_000);
    const childJobId = jobIdOf(childMessage);
    const final = await slack.waitFor(() => chat.progressOf(thread).find((message) => jobIdOf(message) === childJobId && /passed|failed|errored/i.test(message.text)), 120_000);
    expect(final.text).toMatch(/passed/i);
    expect(demo.orders()).toHaveLength(1);
    expect(chat.progressOf(thread).map(jobIdOf).sort()).toEqual([parentJobId, childJobId].sort());
    expect(slack.callsOf('chat.update').filter((call) => call.params.ts === childMessage.ts).length).toBeGreaterThanOrEqual(2);
    const [{ parent_job_id: parentOfChild }] = (await store().query('SELECT parent_job_id FROM jobs WHERE id = ?', [childJobId])) as { parent_job_id: string }[];
    expect(parentOfChild).toBe(parentJobId);
    // Every envelope the fake sent was acked once, on whichever connection was open then.
    expect(socket.received).toHaveLength(chat.sent());

    // Stopping the service closes its socket for good: no connection left, none opened again.
    await running.service.stop();
    await slack.waitFor(() => socket.openConnections === 0, 5_000);
    const connections = socket.totalConnections;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect([socket.openConnections, socket.totalConnections]).toEqual([0, connections]);
  }, 240_000);
});

describe('both receivers at once (CHAT_SIGNING_SECRET and CHAT_APP_TOKEN)', () => {
  const { parts, count } = useSocketModeService({ appToken, botToken, signingSecret: SECRET });

  it('answers a mention signed over HTTP and one sent on the socket', async () => {
    const { slack, running } = parts();
    const chat = conversationOver(slack);

    const httpTs = slackTs();
    const body = JSON.stringify(eventCallback(appMention({ user: userId, text: `<@${botUserId}> help`, channel: channelId, teamId, ts: httpTs }), { teamId }));
    const response = await fetch(`${running.base}${CHAT_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signSlackRequest(SECRET, body) }, body });
    expect(response.status).toBe(200);
    const { thread: socketTs } = await chat.mention('help');

    const helpIn = (threadTs: string) => slack.waitFor(() => chat.inThread(threadTs).find((message) => /replay/i.test(message.text)), 20_000);
    await helpIn(httpTs);
    await helpIn(socketTs);
    expect(await count('SELECT COUNT(*) AS n FROM chat_event_receipts')).toBe(2);
  }, 60_000);
});
