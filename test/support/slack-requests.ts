/**
 * What Slack sends to the bot, built for tests: signed request headers and real-shaped bodies for the Events API,
 * slash commands and button clicks. Shapes follow Slack's docs and @slack/bolt 5's types
 * (`EnvelopedEvent`, `SlashCommand`, `BlockAction`); the same payload objects go into Socket Mode envelopes
 * (`FakeSocketModeServer.send`), the bodies into signed POSTs to `/api/webhooks/chat`.
 */
import { createHmac } from 'node:crypto';
import { FAKE_WORKSPACE } from '../fakes/slack-api.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface SlackSignatureHeaders {
  'X-Slack-Signature': string;
  'X-Slack-Request-Timestamp': string;
}

/**
 * Slack's v0 signature: `v0=` + hex HMAC-SHA256 over `v0:<timestamp>:<raw body>` with the signing secret
 * (https://docs.slack.dev/authentication/verifying-requests-from-slack). `timestamp` in epoch seconds.
 */
export function signSlackRequest(
  secret: string,
  rawBody: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): SlackSignatureHeaders {
  const hash = createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return { 'X-Slack-Signature': `v0=${hash}`, 'X-Slack-Request-Timestamp': String(timestamp) };
}

export interface EnvelopeOptions {
  teamId: string;
  /** Default: a fresh `Ev…` id. Reuse one to simulate Slack's redelivery. */
  eventId?: string;
  /** Default `FAKE_WORKSPACE.appId` (the fake Web API's app id). */
  apiAppId?: string;
  /** The bot user the event was delivered for (`authorizations[0].user_id`). Default `FAKE_WORKSPACE.botUserId`. */
  botUserId?: string;
  /** Epoch seconds. Default: now. */
  eventTime?: number;
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${(sequence += 1)}`;
/** A Slack-style ts for a message a person posts now. */
export const slackTs = () => `${Math.floor(Date.now() / 1000)}.${String((sequence += 1) % 1e6).padStart(6, '0')}`;

/** The `event_callback` body of an Events API delivery (JSON; Socket Mode carries it as the envelope payload). */
export function eventCallback(event: Record<string, unknown>, options: EnvelopeOptions) {
  const eventTime = options.eventTime ?? Math.floor(Date.now() / 1000);
  return {
    token: 'fake-verification-token',
    team_id: options.teamId,
    context_team_id: options.teamId,
    context_enterprise_id: null,
    api_app_id: options.apiAppId ?? FAKE_WORKSPACE.appId,
    event: { event_ts: event.ts, ...event },
    type: 'event_callback' as const,
    event_id: options.eventId ?? nextId('Ev'),
    event_time: eventTime,
    authorizations: [
      {
        enterprise_id: null,
        team_id: options.teamId,
        user_id: options.botUserId ?? FAKE_WORKSPACE.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-fake-${options.teamId}`,
  };
}

export interface MessageFields {
  user: string;
  text: string;
  channel: string;
  teamId: string;
  /** Default: now. */
  ts?: string;
  /** Set for a message inside a thread (the thread's root ts). */
  threadTs?: string;
}

/** The fields a person's message carries in both `app_mention` and `message` events. */
function postedBy(fields: MessageFields) {
  return {
    user: fields.user,
    text: fields.text,
    ts: fields.ts ?? slackTs(),
    team: fields.teamId,
    channel: fields.channel,
    ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
    client_msg_id: nextId('msg-'),
    blocks: [],
  };
}

/** An `app_mention` event: `text` includes the mention, e.g. `<@U0QABOT01> check the cart`. */
export function appMention(fields: MessageFields) {
  return { type: 'app_mention' as const, ...postedBy(fields) };
}

/** A `message` event of a person, e.g. a reply in a thread (`threadTs` set). */
export function channelMessage(
  fields: MessageFields & { channelType?: 'channel' | 'group' | 'im'; /** The thread root's author. */ parentUserId?: string },
) {
  return {
    type: 'message' as const,
    ...postedBy(fields),
    channel_type: fields.channelType ?? 'channel',
    ...(fields.threadTs && fields.parentUserId ? { parent_user_id: fields.parentUserId } : {}),
  };
}

/** The handshake Slack sends when the Events URL is saved (JSON body). */
export function urlVerification(challenge: string) {
  return { token: 'fake-verification-token', challenge, type: 'url_verification' as const };
}

export interface SlashCommandFields {
  teamId: string;
  channelId: string;
  userId: string;
  text: string;
  /** Default: a fresh id; the chat inbox derives the receipt id `cmd:<team>:<trigger>` from it. */
  triggerId?: string;
  /** Default `/qa`. */
  command?: string;
  apiAppId?: string;
}

/** The fields of a slash command (the Socket Mode `slash_commands` payload; every value a string). */
export function slashCommandPayload(fields: SlashCommandFields): Record<string, string> {
  return {
    token: 'fake-verification-token',
    team_id: fields.teamId,
    team_domain: 'fake-team',
    channel_id: fields.channelId,
    channel_name: 'qa',
    user_id: fields.userId,
    user_name: 'tester',
    command: fields.command ?? '/qa',
    text: fields.text,
    api_app_id: fields.apiAppId ?? FAKE_WORKSPACE.appId,
    is_enterprise_install: 'false',
    response_url: `https://hooks.slack.com/commands/${fields.teamId}/1/fake`,
    trigger_id: fields.triggerId ?? nextId('trigger.'),
  };
}

/** The form-encoded body Slack POSTs for a slash command. */
export function slashCommand(fields: SlashCommandFields): string {
  return new URLSearchParams(slashCommandPayload(fields)).toString();
}

export interface BlockActionFields {
  teamId: string;
  channelId: string;
  userId: string;
  /** The ts of the message that holds the button. */
  messageTs: string;
  /** The thread the message is in, when it is a reply. */
  threadTs?: string;
  actions: Array<{ actionId: string; value: string; blockId?: string; text?: string }>;
  /** Default: a fresh id; the chat inbox derives the receipt id `act:<team>:<trigger>` from it. */
  triggerId?: string;
  apiAppId?: string;
}

/** The `block_actions` payload of a button click (the Socket Mode `interactive` payload). */
export function blockActionsPayload(fields: BlockActionFields) {
  const actionTs = slackTs();
  return {
    type: 'block_actions' as const,
    user: { id: fields.userId, username: 'tester', name: 'tester', team_id: fields.teamId },
    api_app_id: fields.apiAppId ?? FAKE_WORKSPACE.appId,
    token: 'fake-verification-token',
    container: {
      type: 'message',
      message_ts: fields.messageTs,
      channel_id: fields.channelId,
      is_ephemeral: false,
      ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
    },
    trigger_id: fields.triggerId ?? nextId('trigger.'),
    team: { id: fields.teamId, domain: 'fake-team' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: fields.channelId, name: 'qa' },
    message: {
      type: 'message',
      ts: fields.messageTs,
      user: FAKE_WORKSPACE.botUserId,
      text: 'question',
      ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
    },
    state: { values: {} },
    response_url: `https://hooks.slack.com/actions/${fields.teamId}/1/fake`,
    actions: fields.actions.map((action) => ({
      type: 'button',
      action_id: action.actionId,
      block_id: action.blockId ?? 'answers',
      text: { type: 'plain_text', text: action.text ?? action.value, emoji: true },
      value: action.value,
      action_ts: actionTs,
    })),
  };
}

/** The form body Slack POSTs for a button click: one `payload` field holding the JSON. */
export function blockActions(fields: BlockActionFields): string {
  return new URLSearchParams({ payload: JSON.stringify(blockActionsPayload(fields)) }).toString();
}
