import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHttpChatApp, CHAT_WEBHOOK_PATH } from '../../../bot/app.js';
import type { ChatInboxPort, ReceivedChatEvent } from '../../../bot/chat-inbox.js';
import { FAKE_WORKSPACE, startFakeSlack, type FakeSlack } from '../../fakes/slack-api.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import {
  appMention,
  blockActions,
  channelMessage,
  eventCallback,
  FORM_CONTENT_TYPE,
  signSlackRequest,
  slashCommand,
  slackTs,
  urlVerification,
} from '../../support/slack-requests.js';

const SECRET = 'chat-signing-secret-for-tests';
const team = FAKE_WORKSPACE.teamId;
const channel = FAKE_WORKSPACE.channelId;
const user = FAKE_WORKSPACE.userId;

/** The port the listeners hand deliveries to, recording them (the job core's inbox is tested on its own). */
function recordingInbox(): ChatInboxPort & { received: ReceivedChatEvent[] } {
  const received: ReceivedChatEvent[] = [];
  return {
    received,
    async accept(event) {
      received.push(event);
      return 'accepted';
    },
  };
}

describe('the chat receiver on the service’s own HTTP app', () => {
  const store = useTestStore('mysql');
  let api: TestApi;
  let slack: FakeSlack;
  const inbox = recordingInbox();

  beforeAll(async () => {
    slack = await startFakeSlack();
    const chat = createHttpChatApp(SECRET, { apiUrl: slack.url, bodyLimit: '16kb' }, { inbox, logger: silentLogger() });
    api = await startTestApi(store(), { mounts: [{ path: '/', router: chat.router }] });
  });

  afterAll(async () => {
    await api?.close();
    await slack?.stop();
  });

  beforeEach(() => {
    inbox.received.length = 0;
  });

  async function post(body: string, { contentType = 'application/json', headers = signSlackRequest(SECRET, body) as unknown as Record<string, string> } = {}) {
    const response = await fetch(`${api.base}${CHAT_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });
    const text = await response.text();
    return { status: response.status, text, json: text.startsWith('{') ? (JSON.parse(text) as Record<string, any>) : undefined }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  /** The listeners run after the ack: wait for what they store. */
  async function received(count: number): Promise<ReceivedChatEvent[]> {
    const deadline = Date.now() + 5_000;
    while (inbox.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return inbox.received;
  }

  it('answers url_verification with the challenge', async () => {
    const answer = await post(JSON.stringify(urlVerification('challenge-123')));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ challenge: 'challenge-123' });
  });

  it('acks a mention and hands it to the inbox under its event_id', async () => {
    const body = eventCallback(appMention({ user, text: `<@${FAKE_WORKSPACE.botUserId}> help`, channel, teamId: team }), { teamId: team, eventId: 'EvMention1' });
    const answer = await post(JSON.stringify(body));
    expect(answer.status).toBe(200);
    const [event] = await received(1);
    expect(event).toMatchObject({ eventId: 'EvMention1', teamId: team, kind: 'app_mention' });
    expect((event!.payload as { event: { text: string } }).event.text).toContain('help');
  });

  it('keeps thread replies of people, and drops bot posts, edits and top-level chatter', async () => {
    const threadTs = slackTs();
    const reply = eventCallback(channelMessage({ user, text: '1. yes', channel, teamId: team, threadTs }), { teamId: team, eventId: 'EvReply1' });
    const bot = eventCallback({ ...channelMessage({ user, text: 'posted by a bot', channel, teamId: team, threadTs }), bot_id: 'B0OTHER' }, { teamId: team });
    const edit = eventCallback({ ...channelMessage({ user, text: 'edited', channel, teamId: team, threadTs }), subtype: 'message_changed' }, { teamId: team });
    const topLevel = eventCallback(channelMessage({ user, text: 'lunch?', channel, teamId: team }), { teamId: team });
    for (const body of [bot, edit, topLevel, reply]) expect((await post(JSON.stringify(body))).status).toBe(200);
    const events = await received(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.map((event) => [event.eventId, event.kind])).toEqual([['EvReply1', 'thread_reply']]);
  });

  it('acks a mention from a bot without storing it', async () => {
    const body = eventCallback({ ...appMention({ user, text: `<@${FAKE_WORKSPACE.botUserId}> help`, channel, teamId: team }), bot_id: 'B0SELF' }, { teamId: team });
    expect((await post(JSON.stringify(body))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inbox.received).toEqual([]);
  });

  it('acks the slash command with an empty body and stores it under a key derived from its trigger id', async () => {
    const body = slashCommand({ teamId: team, channelId: channel, userId: user, text: 'status 123', triggerId: 'trig-1' });
    const answer = await post(body, { contentType: FORM_CONTENT_TYPE, headers: signSlackRequest(SECRET, body) as unknown as Record<string, string> });
    expect(answer.status).toBe(200);
    const [event] = await received(1);
    expect(event).toMatchObject({ eventId: `cmd:${team}:trig-1`, kind: 'slash_command' });
  });

  it('acks an answer button and stores the click', async () => {
    const body = blockActions({ teamId: team, channelId: channel, userId: user, messageTs: slackTs(), actions: [{ actionId: 'qa_answer_yes', value: 'job-1' }], triggerId: 'trig-2' });
    const answer = await post(body, { contentType: FORM_CONTENT_TYPE, headers: signSlackRequest(SECRET, body) as unknown as Record<string, string> });
    expect(answer.status).toBe(200);
    const [event] = await received(1);
    expect(event).toMatchObject({ eventId: `act:${team}:trig-2`, kind: 'answer_button' });
  });

  it('acks an event of a kind it does not handle, and stores nothing', async () => {
    const body = eventCallback({ type: 'reaction_added', user, reaction: 'tada', item: { type: 'message', channel, ts: slackTs() }, event_ts: slackTs() }, { teamId: team });
    expect((await post(JSON.stringify(body))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inbox.received).toEqual([]);
  });

  describe('refuses what Slack did not sign, with a coded 401, before anything is stored', () => {
    const body = JSON.stringify(eventCallback(appMention({ user, text: 'hi', channel, teamId: team }), { teamId: team }));
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Record<string, string>, string][] = [
      ['no signature headers', {}, 'chat.signature_missing'],
      ['a signature but no timestamp', { 'X-Slack-Signature': signSlackRequest(SECRET, body)['X-Slack-Signature'] }, 'chat.signature_missing'],
      ['a timestamp six minutes old', signSlackRequest(SECRET, body, now - 360) as unknown as Record<string, string>, 'chat.request_stale'],
      ['a timestamp six minutes ahead', signSlackRequest(SECRET, body, now + 360) as unknown as Record<string, string>, 'chat.request_stale'],
      ['a timestamp that is not a number', { ...signSlackRequest(SECRET, body), 'X-Slack-Request-Timestamp': '12abc' } as Record<string, string>, 'chat.request_stale'],
      ['another secret', signSlackRequest('another-secret', body) as unknown as Record<string, string>, 'chat.signature_invalid'],
      ['a signature of another body', signSlackRequest(SECRET, `${body} `) as unknown as Record<string, string>, 'chat.signature_invalid'],
      ['a signature of another version', { ...signSlackRequest(SECRET, body), 'X-Slack-Signature': `v1=${'0'.repeat(64)}` } as Record<string, string>, 'chat.signature_invalid'],
      ['a truncated signature', { ...signSlackRequest(SECRET, body), 'X-Slack-Signature': 'v0=abc' } as Record<string, string>, 'chat.signature_invalid'],
    ];
    it.each(cases)('%s', async (_name, headers, code) => {
      const answer = await post(body, { headers });
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ error: { code, message: expect.any(String) } });
      expect(inbox.received).toEqual([]);
    });
  });

  it('refuses a body over the limit with 413, signed or not', async () => {
    const body = JSON.stringify(eventCallback(appMention({ user, text: 'x'.repeat(20_000), channel, teamId: team }), { teamId: team }));
    const answer = await post(body);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ error: { code: 'request.too_large' } });
  });

  it('answers a signed body that is not JSON or a form with 400, and stores nothing', async () => {
    const answer = await post('{"type": "event_callback", ');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: 'request.invalid_json' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inbox.received).toEqual([]);
  });

  it.each([
    ['a form whose payload is not JSON', 'payload=%7B%22type%22%3A', FORM_CONTENT_TYPE, 'request.invalid_json'],
    ['a form whose payload is JSON but no object', 'payload=%5B1%5D', FORM_CONTENT_TYPE, 'request.invalid'],
    ['JSON that is no object', 'null', 'application/json', 'request.invalid'],
    ['a form sent under another content type', 'payload=%7B%7D', 'text/plain', 'request.invalid_json'],
    ['an object of no kind', '{}', 'application/json', 'request.invalid'],
    ['a form of no kind', 'foo=bar', FORM_CONTENT_TYPE, 'request.invalid'],
    ['an event without its event_id', '{"type":"event_callback","team_id":"T1","event":{"type":"app_mention"}}', 'application/json', 'request.invalid'],
    ['a slash command without its trigger_id', 'command=%2Fqa&team_id=T1', FORM_CONTENT_TYPE, 'request.invalid'],
  ])('answers a signed body Bolt could not use (%s) with a coded 400, and stores nothing', async (_what, body, contentType, code) => {
    const answer = await post(body, { contentType });
    expect([answer.status, answer.json?.error?.code]).toEqual([400, code]);
    expect(inbox.received).toEqual([]);
  });

  it('leaves other methods and paths to the API (404 JSON)', async () => {
    const response = await fetch(`${api.base}${CHAT_WEBHOOK_PATH}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'route.not_found' } });
  });
});
