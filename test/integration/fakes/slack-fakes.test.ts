/**
 * The Slack fakes against Slack's own clients: if the real WebClient, InstallProvider, SocketModeClient and Bolt's
 * signature check accept them, later tests that use the fakes test the bot, not the fakes' mistakes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { verifySlackRequest } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import { SocketModeClient } from '@slack/socket-mode';
import { ErrorCode, LogLevel, WebClient, type WebAPIPlatformError, type WebAPIRateLimitedError } from '@slack/web-api';
import { FAKE_WORKSPACE, startFakeSlack, type FakeSlack } from '../../fakes/slack-api.js';
import {
  appMention,
  blockActions,
  channelMessage,
  eventCallback,
  signSlackRequest,
  slashCommand,
  urlVerification,
} from '../../support/slack-requests.js';
import { recordingSlackLogger } from '../../support/slack-logger.js';

const { teamId: TEAM, botUserId: BOT_USER, botToken: BOT_TOKEN, appToken: APP_TOKEN, channelId: CHANNEL } = FAKE_WORKSPACE;

let slack: FakeSlack;
const client = () =>
  new WebClient(BOT_TOKEN, {
    slackApiUrl: slack.url,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: LogLevel.ERROR,
  });

/** The rejection of a call that must fail (a resolved call fails the test). */
async function failureOf<E>(call: Promise<unknown>): Promise<E> {
  return call.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as E,
  );
}

beforeAll(async () => {
  slack = await startFakeSlack({ socketMode: true, clientId: '111.222', clientSecret: 'shh' });
  slack.addToken(BOT_TOKEN, FAKE_WORKSPACE);
  slack.addAppToken(APP_TOKEN);
});
afterEach(() => slack.reset());
afterAll(() => slack.stop());

describe('fake Web API with the real WebClient', () => {
  it('answers auth.test for a registered token and invalid_auth for another', async () => {
    const identity = await client().auth.test();
    expect(identity).toMatchObject({ ok: true, team_id: TEAM, user_id: BOT_USER, team: 'Acme QA' });
    expect(identity.bot_id).toMatch(/^B/);
    expect(identity.url).toBe('https://acme-qa.slack.com/');

    const stranger = new WebClient('xoxb-unknown', { slackApiUrl: slack.url, retryConfig: { retries: 0 } });
    const error = await failureOf<WebAPIPlatformError>(stranger.auth.test());
    expect(error.code).toBe(ErrorCode.PlatformError);
    expect(error.data.error).toBe('invalid_auth');
  });

  it('posts, updates and reads a thread with metadata', async () => {
    const web = client();
    const rootTs = '1700000000.000100';
    const mention = `<@${BOT_USER}> check the cart`;
    slack.addMessage({ channel: CHANNEL, ts: rootTs, text: mention, user: 'U0HUMAN01', teamId: TEAM });

    const posted = await web.chat.postMessage({
      channel: CHANNEL,
      thread_ts: rootTs,
      text: 'Job queued',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Job queued*' } }],
      metadata: { event_type: 'qa_job_progress', event_payload: { job_id: 'job-1' } },
    });
    expect(posted).toMatchObject({
      ok: true,
      channel: CHANNEL,
      message: { text: 'Job queued', user: BOT_USER, thread_ts: rootTs },
    });
    expect(Number(posted.ts)).toBeGreaterThan(Number(rootTs));

    const updated = await web.chat.update({ channel: CHANNEL, ts: posted.ts as string, text: 'Job running: step 1 of 3' });
    expect(updated).toMatchObject({ ok: true, ts: posted.ts, text: 'Job running: step 1 of 3' });

    const withMetadata = await web.conversations.replies({ channel: CHANNEL, ts: rootTs, include_all_metadata: true });
    expect(withMetadata.messages?.map((m) => m.ts)).toEqual([rootTs, posted.ts]);
    expect(withMetadata.messages?.[0]).toMatchObject({ reply_count: 1, latest_reply: posted.ts, thread_ts: rootTs });
    expect(withMetadata.messages?.[1]).toMatchObject({
      text: 'Job running: step 1 of 3',
      blocks: [{ type: 'section' }],
      metadata: { event_type: 'qa_job_progress', event_payload: { job_id: 'job-1' } },
      edited: { user: BOT_USER },
    });
    const plain = await web.conversations.replies({ channel: CHANNEL, ts: rootTs });
    expect(plain.messages?.[1]).not.toHaveProperty('metadata');

    expect(slack.calls.map((call) => `${call.method}:${call.outcome}`)).toEqual([
      'chat.postMessage:ok',
      'chat.update:ok',
      'conversations.replies:ok',
      'conversations.replies:ok',
    ]);
    expect(slack.callsOf('chat.postMessage')[0]).toMatchObject({
      token: BOT_TOKEN,
      params: { channel: CHANNEL, thread_ts: rootTs },
    });
    expect(slack.messages(CHANNEL)).toHaveLength(2);
  });

  it('reads a channel’s top-level messages newest first, by page, with metadata only when asked', async () => {
    const web = client();
    const rootTs = '1700000000.000100';
    slack.addMessage({ channel: CHANNEL, ts: rootTs, text: 'a thread', user: 'U0HUMAN01', teamId: TEAM });
    const first = await web.chat.postMessage({ channel: CHANNEL, text: 'opening', metadata: { event_type: 'qa_chat_opening', event_payload: { event_id: 'cmd:1' } } });
    await web.chat.postMessage({ channel: CHANNEL, thread_ts: rootTs, text: 'a reply stays in its thread' });
    const last = await web.chat.postMessage({ channel: CHANNEL, text: 'newest' });
    await web.chat.postMessage({ channel: 'C0OTHER01', text: 'another channel' });

    const page1 = await web.conversations.history({ channel: CHANNEL, limit: 2, include_all_metadata: true });
    expect(page1.messages?.map((m) => m.text)).toEqual(['newest', 'opening']);
    expect(page1.messages?.[1]).toMatchObject({ ts: first.ts, metadata: { event_type: 'qa_chat_opening', event_payload: { event_id: 'cmd:1' } } });
    expect(page1.messages?.[0]?.ts).toBe(last.ts);
    expect(page1.has_more).toBe(true);
    const page2 = await web.conversations.history({ channel: CHANNEL, limit: 2, cursor: page1.response_metadata?.next_cursor });
    expect(page2.messages?.map((m) => m.text)).toEqual(['a thread']);
    expect(page2).toMatchObject({ has_more: false, response_metadata: { next_cursor: '' } });
    const plain = await web.conversations.history({ channel: CHANNEL });
    expect(plain.messages?.[1]).not.toHaveProperty('metadata');
  });

  it('refuses to update a message that does not exist and reads no thread that does not exist', async () => {
    const web = client();
    const update = await failureOf<WebAPIPlatformError>(web.chat.update({ channel: CHANNEL, ts: '1.000001', text: 'x' }));
    expect(update.data.error).toBe('message_not_found');
    const replies = await failureOf<WebAPIPlatformError>(web.conversations.replies({ channel: CHANNEL, ts: '1.000001' }));
    expect(replies.data.error).toBe('thread_not_found');
  });

  it('answers 429 with Retry-After, which the client surfaces as a rate-limited error with retryAfter', async () => {
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const web = client();
    const error = await failureOf<WebAPIRateLimitedError>(web.chat.postMessage({ channel: CHANNEL, text: 'hi' }));
    expect(error.code).toBe(ErrorCode.RateLimitedError);
    expect(error.retryAfter).toBe(7);
    await expect(web.chat.postMessage({ channel: CHANNEL, text: 'hi' })).resolves.toMatchObject({ ok: true });
    expect(slack.callsOf('chat.postMessage').map((call) => call.outcome)).toEqual(['http 429', 'ok']);
  });

  it('fails with a 500 and with a dropped connection, each as its own error kind', async () => {
    slack.failNext('chat.update', { status: 500 });
    slack.dropNext('chat.postMessage');
    const web = client();
    const http = await failureOf(web.chat.update({ channel: CHANNEL, ts: '1.000001', text: 'x' }));
    expect(http).toMatchObject({ code: ErrorCode.HTTPError, statusCode: 500 });
    const network = await failureOf(web.chat.postMessage({ channel: CHANNEL, text: 'x' }));
    expect(network).toMatchObject({ code: ErrorCode.RequestError });
    expect(slack.messages()).toEqual([]);
  });

  it('answers a scripted platform error for the next calls only', async () => {
    slack.failNext('chat.postMessage', { error: 'not_in_channel', times: 2 });
    const web = client();
    for (let i = 0; i < 2; i += 1) {
      const error = await failureOf<WebAPIPlatformError>(web.chat.postMessage({ channel: CHANNEL, text: 'x' }));
      expect(error.data.error).toBe('not_in_channel');
    }
    await expect(web.chat.postMessage({ channel: CHANNEL, text: 'x' })).resolves.toMatchObject({ ok: true });
  });

  it('accepts JSON bodies and waits for a call', async () => {
    const waiting = slack.waitFor((fake) => fake.messages(CHANNEL).find((m) => m.text === 'from json'));
    const response = await fetch(`${slack.url}chat.postMessage`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${BOT_TOKEN}`, 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: CHANNEL, text: 'from json', metadata: { event_type: 'x', event_payload: {} } }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: CHANNEL });
    await expect(waiting).resolves.toMatchObject({ text: 'from json', metadata: { event_type: 'x' } });
    await expect(slack.waitFor(() => false, 50)).rejects.toThrow(/calls so far: chat.postMessage:ok/);
  });

  it('answers unknown_method, not_authed and invalid_arguments like Slack', async () => {
    const post = (method: string, body: string, token: string | null = BOT_TOKEN) =>
      fetch(`${slack.url}${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body,
      }).then((response) => response.json());
    await expect(post('chat.frobnicate', '')).resolves.toMatchObject({ ok: false, error: 'unknown_method' });
    await expect(post('chat.postMessage', 'channel=C1&text=x', null)).resolves.toEqual({ ok: false, error: 'not_authed' });
    await expect(post('chat.postMessage', `channel=C1&blocks=${encodeURIComponent('[{')}`)).resolves.toEqual({
      ok: false,
      error: 'invalid_arguments',
    });
    expect(slack.messages()).toEqual([]);
  });

  it('answers users.info for a registered user', async () => {
    slack.addUser({ id: 'U0HUMAN01', teamId: TEAM, name: 'ada', realName: 'Ada Lovelace' });
    await expect(client().users.info({ user: 'U0HUMAN01' })).resolves.toMatchObject({
      user: { id: 'U0HUMAN01', team_id: TEAM, real_name: 'Ada Lovelace', is_bot: false },
    });
    const error = await failureOf<WebAPIPlatformError>(client().users.info({ user: 'U0NOBODY' }));
    expect(error.data.error).toBe('user_not_found');
  });
});

describe('fake oauth.v2.access', () => {
  it('completes an install through the real InstallProvider, and the token it stores works', async () => {
    const logger = recordingSlackLogger();
    const grant = { teamId: 'T0OTHER01', teamName: 'Other', botUserId: 'U0OTHERBOT', authedUserId: 'U0ADMIN01' };
    slack.addOAuthCode('code-1', grant);
    const installer = new InstallProvider({
      clientId: '111.222',
      clientSecret: 'shh',
      stateVerification: false,
      clientOptions: { slackApiUrl: slack.url },
      logger,
    });
    const callback = createServer((req, res) => void installer.handleCallback(req, res));
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = callback.address() as AddressInfo;
      const page = await fetch(`http://127.0.0.1:${port}/oauth_redirect?code=code-1&state=ignored`);
      expect(page.status).toBe(200);
      const installation = await installer.installationStore.fetchInstallation({
        teamId: 'T0OTHER01',
        isEnterpriseInstall: false,
        enterpriseId: undefined,
      });
      expect(installation).toMatchObject({
        team: { id: 'T0OTHER01', name: 'Other' },
        user: { id: 'U0ADMIN01' },
        bot: { userId: 'U0OTHERBOT' },
        appId: 'A0FAKEAPP',
      });
      const identity = await new WebClient(installation.bot?.token, { slackApiUrl: slack.url }).auth.test();
      expect(identity.team_id).toBe('T0OTHER01');
      expect(slack.calls.map((call) => `${call.method}:${call.outcome}`)).toEqual([
        'oauth.v2.access:ok',
        'auth.test:ok', // InstallProvider asks for the bot id
        'auth.test:ok',
      ]);

      // A code works once; wrong client credentials (here as Basic auth) are refused.
      const again = await fetch(`http://127.0.0.1:${port}/oauth_redirect?code=code-1&state=ignored`);
      expect(again.status).toBe(500);
      expect(slack.callsOf('oauth.v2.access')[1].outcome).toBe('invalid_code');
      expect(logger.lines.some((line) => line.level === LogLevel.ERROR && line.text.includes('invalid_code'))).toBe(true);
    } finally {
      await new Promise((resolve) => callback.close(resolve));
    }
    slack.addOAuthCode('code-2', grant);
    const basic = await fetch(`${slack.url}oauth.v2.access`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from('111.222:wrong').toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'code=code-2',
    });
    expect(await basic.json()).toEqual({ ok: false, error: 'bad_client_secret' });
  });
});

describe('fake Socket Mode server with the real SocketModeClient', () => {
  it('connects through apps.connections.open, delivers an events_api envelope, gets its ack, and reconnects after a disconnect request or a dropped socket', async () => {
    const socket = slack.socket!;
    const before = socket.totalConnections;
    const logger = recordingSlackLogger();
    const client = new SocketModeClient({
      appToken: APP_TOKEN,
      clientOptions: { slackApiUrl: slack.url },
      clientPingTimeout: 200,
      logger,
    });
    const mentions: string[] = [];
    client.on('app_mention', ({ ack, event }: { ack: () => Promise<void>; event: { text: string } }) => {
      mentions.push(event.text);
      void ack();
    });
    await client.start();
    try {
      expect(slack.callsOf('apps.connections.open')[0]).toMatchObject({ token: APP_TOKEN, outcome: 'ok' });
      const event = appMention({ user: 'U0HUMAN01', text: `<@${BOT_USER}> hi`, channel: CHANNEL, teamId: TEAM });
      const body = eventCallback(event, { teamId: TEAM });
      const ack = await socket.send('events_api', body);
      expect(ack.envelope_id).toEqual(expect.any(String));
      expect(mentions).toEqual([`<@${BOT_USER}> hi`]);

      socket.requestReconnect();
      await socket.waitForConnection(before + 2, 5000);
      const again = await socket.send('events_api', body, { retryAttempt: 1, retryReason: 'timeout' });
      expect(again.envelope_id).not.toBe(ack.envelope_id);
      expect(mentions).toHaveLength(2);
      expect(slack.callsOf('apps.connections.open')).toHaveLength(2);

      socket.dropConnections(); // no close frame: the client notices the closed socket and reconnects
      await socket.waitForConnection(before + 3, 5000);
      await socket.send('events_api', body);
      expect(mentions).toHaveLength(3);
      expect(logger.lines.some((line) => line.level === LogLevel.ERROR && /WebSocket error/.test(line.text))).toBe(true);
    } finally {
      await client.disconnect();
    }
  });

  it('refuses an unknown app token, which the client treats as unrecoverable', async () => {
    const client = new SocketModeClient({
      appToken: 'xapp-unknown',
      clientOptions: { slackApiUrl: slack.url },
      logger: recordingSlackLogger(),
    });
    await expect(client.start()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
  });
});

describe('signed requests and bodies', () => {
  const secret = 'signing-secret';
  const verify = (body: string, headers: ReturnType<typeof signSlackRequest>, nowMilliseconds?: number) =>
    verifySlackRequest({
      signingSecret: secret,
      body,
      headers: {
        'x-slack-signature': headers['X-Slack-Signature'],
        'x-slack-request-timestamp': Number(headers['X-Slack-Request-Timestamp']),
      },
      nowMilliseconds,
    });

  it('signs the way Bolt verifies, and Bolt refuses a changed body or a stale timestamp', () => {
    const reply = channelMessage({ user: 'U1', text: '1. yes', channel: CHANNEL, teamId: TEAM, threadTs: '1.000100' });
    const body = JSON.stringify(eventCallback(reply, { teamId: TEAM }));
    const headers = signSlackRequest(secret, body);
    expect(() => verify(body, headers)).not.toThrow();
    expect(() => verify(`${body} `, headers)).toThrow(/signature mismatch/);
    const old = signSlackRequest(secret, body, Math.floor(Date.now() / 1000) - 6 * 60);
    expect(() => verify(body, old)).toThrow(/stale/);
  });

  it('builds the bodies Slack sends', () => {
    const reply = channelMessage({ user: 'U1', text: 'a', channel: CHANNEL, teamId: TEAM, threadTs: '1.000100' });
    expect(eventCallback(reply, { teamId: TEAM, eventId: 'Ev1' })).toMatchObject({
      type: 'event_callback',
      team_id: TEAM,
      event_id: 'Ev1',
      event: { type: 'message', user: 'U1', text: 'a', thread_ts: '1.000100', channel_type: 'channel', event_ts: reply.ts },
    });
    expect(urlVerification('abc')).toMatchObject({ type: 'url_verification', challenge: 'abc' });

    const command = slashCommand({ teamId: TEAM, channelId: CHANNEL, userId: 'U1', text: 'status 42', triggerId: 'tr.1' });
    expect(Object.fromEntries(new URLSearchParams(command))).toMatchObject({
      command: '/qa',
      text: 'status 42',
      team_id: TEAM,
      channel_id: CHANNEL,
      user_id: 'U1',
      trigger_id: 'tr.1',
    });

    const form = new URLSearchParams(
      blockActions({
        teamId: TEAM,
        channelId: CHANNEL,
        userId: 'U1',
        messageTs: '2.000200',
        threadTs: '1.000100',
        actions: [{ actionId: 'answer_yes', value: 'yes' }],
        triggerId: 'tr.2',
      }),
    );
    expect([...form.keys()]).toEqual(['payload']);
    expect(JSON.parse(form.get('payload') as string)).toMatchObject({
      type: 'block_actions',
      trigger_id: 'tr.2',
      team: { id: TEAM },
      user: { id: 'U1' },
      container: { message_ts: '2.000200', channel_id: CHANNEL, thread_ts: '1.000100' },
      message: { ts: '2.000200' },
      actions: [{ action_id: 'answer_yes', value: 'yes', type: 'button' }],
    });
  });
});
