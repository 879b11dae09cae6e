/**
 * The request builders and the fakes against a real Bolt App: signed HTTP bodies through Bolt's HTTPReceiver, and
 * slash command and button envelopes through its Socket Mode receiver, reach the listeners with the fields the bot
 * reads. If Bolt parses them, the bot's tests exercise the bot rather than a body Slack would never send.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { App, HTTPReceiver, type BlockAction, type ButtonAction, type SlashCommand } from '@slack/bolt';
import { FAKE_WORKSPACE, startFakeSlack, type FakeSlack } from '../../fakes/slack-api.js';
import { recordingSlackLogger } from '../../support/slack-logger.js';
import {
  appMention,
  blockActions,
  blockActionsPayload,
  eventCallback,
  FORM_CONTENT_TYPE,
  signSlackRequest,
  slashCommand,
  slashCommandPayload,
  urlVerification,
} from '../../support/slack-requests.js';

const { teamId: TEAM, botUserId: BOT_USER, botToken: BOT_TOKEN, appToken: APP_TOKEN, channelId: CHANNEL } = FAKE_WORKSPACE;
const SECRET = 'signing-secret';

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack({ socketMode: true });
  slack.addToken(BOT_TOKEN, FAKE_WORKSPACE);
  slack.addAppToken(APP_TOKEN);
});
afterAll(() => slack.stop());

/** What the listeners saw, by kind. */
function listen(app: App) {
  const seen = { mentions: [] as string[], commands: [] as SlashCommand[], actions: [] as BlockAction<ButtonAction>[] };
  app.event('app_mention', async ({ event }) => void seen.mentions.push(event.text));
  app.command('/qa', async ({ ack, command }) => {
    seen.commands.push(command);
    await ack();
  });
  app.action<BlockAction<ButtonAction>>('answer_yes', async ({ ack, body }) => {
    seen.actions.push(body);
    await ack();
  });
  return seen;
}

describe('signed HTTP requests through Bolt’s HTTPReceiver', () => {
  let server: Server;
  let endpoint: string;
  let seen: ReturnType<typeof listen>;

  beforeAll(async () => {
    const receiver = new HTTPReceiver({ signingSecret: SECRET, endpoints: '/slack/events', logger: recordingSlackLogger() });
    const app = new App({ receiver, token: BOT_TOKEN, clientOptions: { slackApiUrl: slack.url }, logger: recordingSlackLogger() });
    seen = listen(app);
    server = await receiver.start(0);
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (body: string, contentType: string, signature = signSlackRequest(SECRET, body)) =>
    fetch(endpoint, { method: 'POST', headers: { 'Content-Type': contentType, ...signature }, body });

  it('answers url_verification with the challenge', async () => {
    const response = await post(JSON.stringify(urlVerification('c-123')), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: 'c-123' });
  });

  it('delivers an app_mention, a slash command and a button click to the listeners', async () => {
    const mention = appMention({ user: 'U0HUMAN01', text: `<@${BOT_USER}> check the cart`, channel: CHANNEL, teamId: TEAM });
    expect((await post(JSON.stringify(eventCallback(mention, { teamId: TEAM })), 'application/json')).status).toBe(200);
    const command = slashCommand({ teamId: TEAM, channelId: CHANNEL, userId: 'U0HUMAN01', text: 'status 42', triggerId: 'tr.1' });
    expect((await post(command, FORM_CONTENT_TYPE)).status).toBe(200);
    const click = blockActions({
      teamId: TEAM,
      channelId: CHANNEL,
      userId: 'U0HUMAN01',
      messageTs: '1700000001.000200',
      threadTs: '1700000000.000100',
      actions: [{ actionId: 'answer_yes', value: 'yes' }],
      triggerId: 'tr.2',
    });
    expect((await post(click, FORM_CONTENT_TYPE)).status).toBe(200);

    await slack.waitFor(() => seen.mentions.length === 1);
    expect(seen.mentions).toEqual([`<@${BOT_USER}> check the cart`]);
    expect(seen.commands[0]).toMatchObject({ text: 'status 42', team_id: TEAM, channel_id: CHANNEL, trigger_id: 'tr.1' });
    expect(seen.actions[0]).toMatchObject({
      trigger_id: 'tr.2',
      container: { thread_ts: '1700000000.000100', message_ts: '1700000001.000200' },
      actions: [{ action_id: 'answer_yes', value: 'yes' }],
    });
  });

  it('refuses a body signed with another secret or too long ago', async () => {
    const body = slashCommand({ teamId: TEAM, channelId: CHANNEL, userId: 'U0HUMAN01', text: 'help' });
    expect((await post(body, FORM_CONTENT_TYPE, signSlackRequest('other-secret', body))).status).toBe(401);
    const stale = signSlackRequest(SECRET, body, Math.floor(Date.now() / 1000) - 10 * 60);
    expect((await post(body, FORM_CONTENT_TYPE, stale)).status).toBe(401);
    expect(seen.commands.map((command) => command.text)).not.toContain('help');
  });
});

describe('envelopes through Bolt’s Socket Mode receiver', () => {
  it('delivers slash_commands and interactive envelopes and sends the acks back', async () => {
    const app = new App({
      token: BOT_TOKEN,
      appToken: APP_TOKEN,
      socketMode: true,
      clientOptions: { slackApiUrl: slack.url },
      logger: recordingSlackLogger(),
    });
    const seen = listen(app);
    await app.start();
    try {
      const socket = slack.socket!;
      const command = slashCommandPayload({ teamId: TEAM, channelId: CHANNEL, userId: 'U0HUMAN01', text: 'checks' });
      const commandAck = await socket.send('slash_commands', command);
      expect(commandAck.envelope_id).toEqual(expect.any(String));
      const click = blockActionsPayload({
        teamId: TEAM,
        channelId: CHANNEL,
        userId: 'U0HUMAN01',
        messageTs: '1700000001.000200',
        actions: [{ actionId: 'answer_yes', value: 'yes' }],
      });
      await socket.send('interactive', click);
      expect(seen.commands.map((c) => c.text)).toEqual(['checks']);
      expect(seen.actions.map((a) => a.actions[0].value)).toEqual(['yes']);
    } finally {
      await app.stop();
    }
  });
});
