import { App, ExpressReceiver, SocketModeReceiver, type Authorize } from '@slack/bolt';
import { Router } from 'express';
import { boltLogger } from './bolt-logger.js';
import type { ChatInboxPort } from './chat-inbox.js';
import * as answerButtons from './listeners/actions/answer-buttons.js';
import * as qaCommand from './listeners/commands/qa.js';
import * as appMention from './listeners/events/app-mention.js';
import * as threadReply from './listeners/events/thread-reply.js';
import type { ListenerDeps } from './listeners/deps.js';
import { verifySlackSignature } from './receiver/verify-request.js';

/** Where Slack sends events, interactivity and the slash command (manifest.yml): one URL for all three. */
export const CHAT_WEBHOOK_PATH = '/api/webhooks/chat';

/** Every listener of the app, in one place: each module's `register(app, deps)`. */
const LISTENERS = [appMention, threadReply, qaCommand, answerButtons];

export interface ChatReceiverSettings {
  /** Slack's Web API base (`https://slack.com/api/`; tests point it at the fake). */
  apiUrl: string;
  /** The largest request body accepted (Slack's are a few KB; a block_actions payload with a long message more). */
  bodyLimit?: string;
}

/**
 * No token is looked up before the ack: the listeners only store what arrived (the `chat-event` job finds the
 * workspace's token when it answers), so authorizing is free and the ack goes out before any database work.
 */
const authorizeLater: Authorize<boolean> = async (source) => ({ teamId: source.teamId, enterpriseId: source.enterpriseId });

function listen(app: App, deps: ListenerDeps): App {
  // Unknown kinds of requests are ignored, with a line saying so (Bolt calls no listener for them).
  app.use(async ({ body, next }) => {
    const envelope = body as { type?: string; event?: { type?: string } };
    const kind = envelope.event?.type ?? envelope.type;
    if (!['app_mention', 'message', 'block_actions'].includes(kind ?? '') && !('command' in envelope)) {
      deps.logger.info({ kind }, 'chat request of a kind the bot does not handle; ignored');
    }
    await next();
  });
  for (const listener of LISTENERS) listener.register(app, deps);
  app.error(async (error) => {
    deps.logger.error({ err: error }, 'chat listener failed');
  });
  return app;
}

export interface HttpChatApp {
  app: App;
  /** Mount at the root of the service's Express app (it answers only `POST /api/webhooks/chat`), with no body parser in front. */
  router: Router;
}

/**
 * The bot over HTTP: Bolt's Express receiver on a router of the service's own app. The signature is checked over
 * the raw bytes first (coded 401s, 413 over the limit), then Bolt parses, answers `url_verification` and
 * `ssl_check`, acks, and runs the listeners.
 */
export function createHttpChatApp(signingSecret: string, settings: ChatReceiverSettings, deps: ListenerDeps): HttpChatApp {
  const bodyLimit = settings.bodyLimit ?? '256kb';
  const router = Router();
  router.post(CHAT_WEBHOOK_PATH, ...verifySlackSignature(signingSecret, { bodyLimit }));
  const logger = boltLogger(deps.logger.child({ component: 'chat' }));
  const receiver = new ExpressReceiver({ signingSecret, endpoints: CHAT_WEBHOOK_PATH, router, logger, bodyLimit, processBeforeResponse: false });
  const app = new App({ receiver, authorize: authorizeLater, logger, ignoreSelf: false, clientOptions: { slackApiUrl: settings.apiUrl } });
  return { app: listen(app, deps), router };
}

export interface SocketModeChatApp {
  app: App;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The bot over Socket Mode (`CHAT_APP_TOKEN`, `xapp-…`): the same listeners, over a WebSocket the app opens to
 * Slack, for a team that has no public URL. Each envelope is acked on the socket before the listener stores it.
 */
export function createSocketModeChatApp(appToken: string, settings: ChatReceiverSettings, deps: ListenerDeps): SocketModeChatApp {
  const logger = boltLogger(deps.logger.child({ component: 'chat-socket' }));
  const clientOptions = { slackApiUrl: settings.apiUrl };
  const receiver = new SocketModeReceiver({ appToken, logger, installerOptions: { clientOptions } });
  const app = listen(new App({ receiver, authorize: authorizeLater, logger, ignoreSelf: false, clientOptions }), deps);
  return {
    app,
    async start() {
      await app.start();
    },
    async stop() {
      await app.stop();
    },
  };
}

export type { ChatInboxPort };
