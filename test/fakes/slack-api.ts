/**
 * A local stand-in for Slack's Web API: a real HTTP server on 127.0.0.1 that speaks the wire format @slack/web-api 8
 * sends (POST `/api/<method>`, form-encoded or JSON body, `Authorization: Bearer <token>`) and answers like Slack
 * (HTTP 200 with `{ ok: true, … }` or `{ ok: false, error }`; 429 with `Retry-After`). It keeps posted messages per
 * channel, records every call, and can fail or drop the next calls of a method, so tests drive the real WebClient,
 * InstallProvider and SocketModeClient against it. Method shapes: https://docs.slack.dev/reference/methods/<method>
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeSocketModeServer, type FakeSocketModeServer } from './socket-mode-server.js';

/**
 * The workspace most tests need, with the ids the request builders use by default. Register it with
 * `fake.addToken(FAKE_WORKSPACE.botToken, FAKE_WORKSPACE)` (and `addAppToken(FAKE_WORKSPACE.appToken)`).
 */
export const FAKE_WORKSPACE = {
  teamId: 'T0TEAM001',
  teamName: 'Acme QA',
  botUserId: 'U0QABOT01',
  botToken: 'xoxb-fake-team-001',
  appToken: 'xapp-1-fake',
  appId: 'A0FAKEAPP',
  channelId: 'C0QA00001',
  /** A person in the workspace. */
  userId: 'U0HUMAN01',
} as const;

/** Request parameters as Slack receives them: form values are strings; JSON-valued fields stay as sent. */
export type SlackParams = Record<string, unknown>;

export interface RecordedCall {
  method: string;
  params: SlackParams;
  /** The bearer token (or the body's `token`); null when none was sent. */
  token: string | null;
  at: Date;
  /** `ok`, the `error` code answered, `http <status>`, or `dropped`. */
  outcome: string;
}

/** A message as Slack stores it (the shape conversations.replies and conversations.history return). */
export interface StoredMessage {
  type: 'message';
  channel: string;
  ts: string;
  text: string;
  user: string;
  bot_id?: string;
  app_id?: string;
  team: string;
  thread_ts?: string;
  blocks?: unknown[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  edited?: { user: string; ts: string };
  reply_count?: number;
  latest_reply?: string;
}

export interface TokenIdentity {
  teamId: string;
  /** The bot's user id (`U…`); auth.test's user_id. */
  botUserId: string;
  /** Default: `B` + the team id's tail. */
  botId?: string;
  /** Default: `Fake Team`. */
  teamName?: string;
  /** Default: `qa-bot`. */
  userName?: string;
  /** Default: the fake's app id. */
  appId?: string;
}

export interface OAuthGrant {
  teamId: string;
  teamName?: string;
  botUserId: string;
  /** Default: `xoxb-<team>-<random>`; registered with addToken, so auth.test works for it. */
  accessToken?: string;
  /** Default: the scopes of manifest.yml. */
  scope?: string;
  /** The installing user. */
  authedUserId: string;
  /** When set, oauth.v2.access must send the same redirect_uri. */
  redirectUri?: string;
}

export interface FailureSpec {
  /** HTTP status: 429 (with Retry-After), 500 or 503. Default 200 with `{ ok: false, error }` when `error` is set. */
  status?: 429 | 500 | 503;
  /** Seconds in Retry-After for a 429. Default 1. */
  retryAfter?: number;
  /** A platform error code answered with HTTP 200, e.g. `channel_not_found`, `not_in_channel`. */
  error?: string;
  /** How many of the next calls fail. Default 1. */
  times?: number;
}

export interface FakeSlackOptions {
  /** Default `FAKE_WORKSPACE.appId`. */
  appId?: string;
  /** When set, oauth.v2.access checks the client credentials (`invalid_client_id`, `bad_client_secret`). */
  clientId?: string;
  clientSecret?: string;
  /** Starts a fake Socket Mode server and answers apps.connections.open with its URL. */
  socketMode?: boolean;
}

export interface FakeSlack {
  /** The API base for `slackApiUrl` / CHAT_API_URL: `http://127.0.0.1:<port>/api/`. */
  url: string;
  calls: RecordedCall[];
  /** The Socket Mode server when started with `socketMode: true`. */
  socket?: FakeSocketModeServer;
  /** Its base URL (`ws://127.0.0.1:<port>/link/`). */
  socketUrl?: string;
  /** Makes a bot token valid for a workspace. */
  addToken(token: string, identity: TokenIdentity): void;
  /** Makes an app-level token (`xapp-…`) valid for apps.connections.open. */
  addAppToken(token: string): void;
  /** Registers a one-use code for oauth.v2.access. */
  addOAuthCode(code: string, grant: OAuthGrant): void;
  /** Registers a user for users.info. */
  addUser(user: { id: string; teamId: string; name: string; realName?: string; isBot?: boolean }): void;
  /** Stores a message someone else posted (e.g. the mention that starts a thread) so conversations.replies sees it. */
  addMessage(message: { channel: string; ts: string; text: string; user: string; teamId: string; threadTs?: string }): void;
  /** Stored messages of one channel, or of all, in ts order. */
  messages(channel?: string): StoredMessage[];
  /** The calls of one method. */
  callsOf(method: string): RecordedCall[];
  /** Polls until `probe` returns something other than undefined/false/null; rejects after `timeoutMs` (default 5 s). */
  waitFor<T>(probe: (fake: FakeSlack) => T | undefined | false | null, timeoutMs?: number): Promise<T>;
  /** The next `times` calls of `method` fail as described. */
  failNext(method: string, failure: FailureSpec): void;
  /** The next `times` calls of `method` get their connection destroyed without an answer: a network error. */
  dropNext(method: string, times?: number): void;
  /** Forgets calls, messages and pending failures; keeps tokens, codes and users. */
  reset(): void;
  stop(): Promise<void>;
}

/** What a method handler answers: the result fields of an ok answer, or a platform error code. */
type Answer = { ok: true; [field: string]: unknown } | { ok: false; error: string; [field: string]: unknown };
type Handler = (call: { params: SlackParams; token: string | null; basic: Basic | null }) => Answer;
type Basic = { id: string; secret: string };

const DEFAULT_SCOPE = 'app_mentions:read,chat:write,channels:history,groups:history,im:history,commands';

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const appId = options.appId ?? FAKE_WORKSPACE.appId;
  const tokens = new Map<string, Required<TokenIdentity>>();
  const appTokens = new Set<string>();
  const codes = new Map<string, OAuthGrant>();
  const users = new Map<string, { id: string; teamId: string; name: string; realName?: string; isBot?: boolean }>();
  const calls: RecordedCall[] = [];
  let stored: StoredMessage[] = [];
  let failures = new Map<string, Array<FailureSpec | 'drop'>>();
  let lastTs = 0;
  const socket = options.socketMode ? await startFakeSocketModeServer() : undefined;

  /** Slack's ts: epoch seconds and six more digits, unique and increasing (within this fake, across channels). */
  const nextTs = () => {
    lastTs = Math.max(lastTs + 1, Date.now() * 1000);
    return `${Math.floor(lastTs / 1e6)}.${String(lastTs % 1e6).padStart(6, '0')}`;
  };
  const addToken = (token: string, identity: TokenIdentity) =>
    tokens.set(token, {
      teamId: identity.teamId,
      botUserId: identity.botUserId,
      botId: identity.botId ?? `B${identity.teamId.slice(1)}`,
      teamName: identity.teamName ?? 'Fake Team',
      userName: identity.userName ?? 'qa-bot',
      appId: identity.appId ?? appId,
    });
  const bot = (token: string | null) => (token === null ? undefined : tokens.get(token));
  const withBot = (handler: (params: SlackParams, identity: Required<TokenIdentity>) => Answer): Handler =>
    ({ params, token }) => {
      if (token === null) return { ok: false, error: 'not_authed' };
      const identity = bot(token);
      return identity ? handler(params, identity) : { ok: false, error: 'invalid_auth' };
    };
  const find = (channel: unknown, ts: unknown) => stored.find((m) => m.channel === channel && m.ts === ts);
  /** JSON-valued arguments arrive as JSON text in a form body (WebClient.serializeBody) and as values in JSON. */
  const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
  /** Form values are strings already; a JSON body may carry numbers (Slack coerces them). */
  const asText = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value));
  const flag = (value: unknown) => value === true || value === 'true' || value === '1';
  const visible = (message: StoredMessage, withMetadata: boolean) => {
    const { channel: _channel, metadata, ...rest } = message;
    return withMetadata && metadata ? { ...rest, metadata } : rest;
  };

  const handlers: Record<string, Handler> = {
    'auth.test': withBot((_params, id) => ({
      ok: true,
      url: `https://${id.teamName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.slack.com/`,
      team: id.teamName,
      user: id.userName,
      team_id: id.teamId,
      user_id: id.botUserId,
      bot_id: id.botId,
      is_enterprise_install: false,
    })),

    'chat.postMessage': withBot((params, id) => {
      if (typeof params.channel !== 'string' || params.channel === '') return { ok: false, error: 'channel_not_found' };
      if (!params.text && !params.blocks) return { ok: false, error: 'no_text' };
      const message: StoredMessage = {
        type: 'message',
        channel: params.channel,
        ts: nextTs(),
        text: asText(params.text),
        user: id.botUserId,
        bot_id: id.botId,
        app_id: id.appId,
        team: id.teamId,
        ...(params.thread_ts ? { thread_ts: asText(params.thread_ts) } : {}),
        ...(params.blocks ? { blocks: json(params.blocks) as unknown[] } : {}),
        ...(params.metadata ? { metadata: json(params.metadata) as StoredMessage['metadata'] } : {}),
      };
      stored.push(message);
      const root = message.thread_ts ? find(message.channel, message.thread_ts) : undefined;
      if (root) {
        root.thread_ts = root.ts;
        root.reply_count = (root.reply_count ?? 0) + 1;
        root.latest_reply = message.ts;
      }
      return { ok: true, channel: message.channel, ts: message.ts, message: visible(message, false) };
    }),

    'chat.update': withBot((params, id) => {
      const message = find(params.channel, params.ts);
      if (!message) return { ok: false, error: 'message_not_found' };
      if (message.user !== id.botUserId) return { ok: false, error: 'cant_update_message' };
      if (params.text !== undefined) message.text = asText(params.text);
      if (params.blocks !== undefined) message.blocks = json(params.blocks) as unknown[];
      if (params.metadata !== undefined) message.metadata = json(params.metadata) as StoredMessage['metadata'];
      message.edited = { user: id.botUserId, ts: nextTs() };
      return { ok: true, channel: message.channel, ts: message.ts, text: message.text, message: visible(message, false) };
    }),

    'conversations.replies': withBot((params) => {
      const thread = stored
        .filter((m) => m.channel === params.channel && (m.ts === params.ts || m.thread_ts === params.ts))
        .sort((a, b) => Number(a.ts) - Number(b.ts));
      if (thread.length === 0) return { ok: false, error: 'thread_not_found' };
      const limit = params.limit === undefined ? 1000 : Number(params.limit);
      return {
        ok: true,
        messages: thread.slice(0, limit).map((m) => visible(m, flag(params.include_all_metadata))),
        has_more: thread.length > limit,
        response_metadata: { next_cursor: '' },
      };
    }),

    // https://docs.slack.dev/reference/methods/conversations.history: the channel's top-level messages, newest first
    // (thread replies stay in their thread), `limit` per page and a cursor to the next.
    'conversations.history': withBot((params) => {
      if (typeof params.channel !== 'string' || params.channel === '') return { ok: false, error: 'channel_not_found' };
      const top = stored
        .filter((m) => m.channel === params.channel && (m.thread_ts === undefined || m.thread_ts === m.ts))
        .sort((a, b) => Number(b.ts) - Number(a.ts));
      const limit = params.limit === undefined ? 100 : Number(params.limit);
      const offset = typeof params.cursor === 'string' && params.cursor.startsWith('off:') ? Number(params.cursor.slice(4)) : 0;
      const page = top.slice(offset, offset + limit);
      const more = offset + limit < top.length;
      return {
        ok: true,
        messages: page.map((m) => visible(m, flag(params.include_all_metadata))),
        has_more: more,
        response_metadata: { next_cursor: more ? `off:${offset + limit}` : '' },
      };
    }),

    'users.info': withBot((params) => {
      const user = typeof params.user === 'string' ? users.get(params.user) : undefined;
      if (!user) return { ok: false, error: 'user_not_found' };
      return {
        ok: true,
        user: {
          id: user.id,
          team_id: user.teamId,
          name: user.name,
          real_name: user.realName ?? user.name,
          deleted: false,
          is_bot: user.isBot ?? false,
          profile: { real_name: user.realName ?? user.name, display_name: user.name },
        },
      };
    }),

    // https://docs.slack.dev/reference/methods/oauth.v2.access: client credentials in the body (what @slack/oauth 4
    // sends) or as HTTP Basic auth.
    'oauth.v2.access': ({ params, basic }) => {
      const clientId = basic?.id ?? params.client_id;
      const clientSecret = basic?.secret ?? params.client_secret;
      if (!clientId) return { ok: false, error: 'invalid_client_id' };
      if (options.clientId !== undefined && clientId !== options.clientId) return { ok: false, error: 'invalid_client_id' };
      if (options.clientSecret !== undefined && clientSecret !== options.clientSecret) {
        return { ok: false, error: 'bad_client_secret' };
      }
      const grant = typeof params.code === 'string' ? codes.get(params.code) : undefined;
      if (!grant) return { ok: false, error: 'invalid_code' };
      if (grant.redirectUri !== undefined && params.redirect_uri !== grant.redirectUri) {
        return { ok: false, error: 'bad_redirect_uri' };
      }
      codes.delete(params.code as string);
      const accessToken = grant.accessToken ?? `xoxb-${grant.teamId}-${Math.random().toString(36).slice(2, 14)}`;
      addToken(accessToken, { teamId: grant.teamId, teamName: grant.teamName, botUserId: grant.botUserId });
      return {
        ok: true,
        access_token: accessToken,
        token_type: 'bot',
        scope: grant.scope ?? DEFAULT_SCOPE,
        bot_user_id: grant.botUserId,
        app_id: appId,
        team: { id: grant.teamId, name: grant.teamName ?? 'Fake Team' },
        enterprise: null,
        is_enterprise_install: false,
        authed_user: { id: grant.authedUserId },
      };
    },

    'apps.connections.open': ({ token }) => {
      if (token === null) return { ok: false, error: 'not_authed' };
      if (tokens.has(token)) return { ok: false, error: 'not_allowed_token_type' };
      if (!appTokens.has(token)) return { ok: false, error: 'invalid_auth' };
      if (!socket) return { ok: false, error: 'fake_socket_mode_not_started' };
      return { ok: true, url: socket.connectionUrl(appId) };
    },
  };

  const answerCall = (method: string, call: Parameters<Handler>[0]): Answer => {
    if (!Object.hasOwn(handlers, method)) return { ok: false, error: 'unknown_method', req_method: method };
    try {
      return handlers[method](call);
    } catch {
      return { ok: false, error: 'invalid_arguments' }; // e.g. blocks or metadata that are not JSON
    }
  };

  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0];
      const params = parseParams(request.headers['content-type'], raw);
      const { token, basic } = credentials(request.headers.authorization, params);
      const call: RecordedCall = { method, params, token, at: new Date(), outcome: 'ok' };
      calls.push(call);

      const failure = failures.get(method)?.shift();
      if (failure === 'drop') {
        call.outcome = 'dropped';
        request.socket.destroy();
        return;
      }
      if (failure?.status === 429) {
        call.outcome = 'http 429';
        send(response, 429, { ok: false, error: 'ratelimited' }, { 'Retry-After': String(failure.retryAfter ?? 1) });
        return;
      }
      if (failure?.status !== undefined) {
        call.outcome = `http ${failure.status}`;
        response.writeHead(failure.status, { 'Content-Type': 'text/html' }).end('<html><body>Server Error</body></html>');
        return;
      }
      const answer = failure?.error ? { ok: false as const, error: failure.error } : answerCall(method, { params, token, basic });
      if (!answer.ok) call.outcome = answer.error;
      send(response, 200, answer);
    }, () => request.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeSlack = {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    socket,
    socketUrl: socket?.url,
    addToken,
    addAppToken: (token) => void appTokens.add(token),
    addOAuthCode: (code, grant) => void codes.set(code, grant),
    addUser: (user) => void users.set(user.id, user),
    addMessage: ({ channel, ts, text, user, teamId, threadTs }) =>
      void stored.push({
        type: 'message',
        channel,
        ts,
        text,
        user,
        team: teamId,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      }),
    messages: (channel) =>
      stored.filter((m) => channel === undefined || m.channel === channel).sort((a, b) => Number(a.ts) - Number(b.ts)),
    callsOf: (method) => calls.filter((call) => call.method === method),
    async waitFor(probe, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = probe(fake);
        if (value !== undefined && value !== false && value !== null) return value;
        if (Date.now() > deadline) {
          const seen = calls.map((call) => `${call.method}:${call.outcome}`).join(', ') || 'none';
          throw new Error(`fake Slack: condition not met within ${timeoutMs} ms (calls so far: ${seen})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    failNext(method, failure) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < (failure.times ?? 1); i += 1) queue.push(failure);
      failures.set(method, queue);
    },
    dropNext(method, times = 1) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < times; i += 1) queue.push('drop');
      failures.set(method, queue);
    },
    reset() {
      calls.length = 0;
      stored = [];
      failures = new Map();
    },
    async stop() {
      await socket?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  return fake;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Slack accepts `application/x-www-form-urlencoded` (what WebClient sends) and `application/json` bodies. */
function parseParams(contentType: string | undefined, raw: string): SlackParams {
  if (raw === '') return {};
  if (contentType?.startsWith('application/json')) {
    try {
      return JSON.parse(raw) as SlackParams;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function credentials(authorization: string | undefined, params: SlackParams): { token: string | null; basic: Basic | null } {
  const [scheme, value] = (authorization ?? '').split(' ');
  if (scheme === 'Bearer' && value) return { token: value, basic: null };
  if (scheme === 'Basic' && value) {
    const [id, secret] = Buffer.from(value, 'base64').toString('utf8').split(':');
    return { token: null, basic: { id, secret: secret ?? '' } };
  }
  return { token: typeof params.token === 'string' ? params.token : null, basic: null };
}

function send(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}
