import { createHttpChatApp, createSocketModeChatApp, type SocketModeChatApp } from '../../bot/app.js';
import { handleChatEvent } from '../../bot/conversation/handle-event.js';
import type { ConversationDeps } from '../../bot/conversation/deps.js';
import { createInstallRoutes, REDIRECT_PATH } from '../../bot/oauth/install-routes.js';
import { SlackProgressSink } from '../../bot/progress/slack-sink.js';
import { createSlackPoster } from '../../bot/slack/poster.js';
import { createSlackClients } from '../../bot/slack/web-client.js';
import type { Mount } from '../api/app.js';
import type { Config } from '../config.js';
import { createChannelBindings } from '../jobs/chat/channel-bindings.js';
import { createChatInbox, type ChatInbox } from '../jobs/chat/chat-inbox.js';
import { createChatWorkspaces, type ChatWorkspaces } from '../jobs/chat/chat-workspaces.js';
import type { CheckService } from '../jobs/check-service.js';
import type { JobService } from '../jobs/job-service.js';
import type { NotificationOutbox } from '../jobs/notification-outbox.js';
import type { Logger } from '../logger.js';
import type { ProgressSink } from '../notify/progress-sink.js';
import type { Queue } from '../queue/index.js';
import type { DataSource } from 'typeorm';
import type { WriteBatch } from '../store/write-batch.js';
import { chatEventStarter } from '../workflows/chat-event-starter.js';
import type { ChatEventHandler } from '../workflows/chat-event.js';

/** The chat bot's part of a process's graph: built once, used by the HTTP side, the processors and the roles. */
export interface ChatParts {
  inbox: ChatInbox;
  workspaces: ChatWorkspaces;
  /** The receiver (`POST /api/webhooks/chat`) and the OAuth install routes, for the HTTP side. */
  mounts: Mount[];
  /** Socket Mode, when CHAT_APP_TOKEN is set: started by the serving roles, like the HTTP server. */
  socket: SocketModeChatApp | undefined;
  /** Answers one stored delivery: the processors' `chat-event` job (src/workflows/registry.ts) calls it. */
  handleEvent: ChatEventHandler;
  /** Where chat jobs' progress goes (src/notify's port). */
  sink: ProgressSink;
}

export interface ChatPartsDeps {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  queue: Queue;
  writes: WriteBatch;
  jobs: JobService;
  checks: CheckService;
  notifications: NotificationOutbox;
}

/**
 * The Slack bot on the job core: the inbox the listeners store deliveries in, the receivers (HTTP on the service's
 * own app, or Socket Mode), the install routes, the `chat-event` job that answers, and the progress sink notify
 * uses. Every token goes through the workspaces use case, so a job's messages only ever go to a workspace connected
 * to the job's organization.
 */
export function composeChat(deps: ChatPartsDeps): ChatParts {
  const { config, logger, dataSource } = deps;
  const chat = config.chat;
  const log = logger.child({ component: 'chat' });
  const inbox = createChatInbox({ dataSource, writes: deps.writes, starter: chatEventStarter(deps.queue) });
  const workspaces = createChatWorkspaces({ dataSource, tokenKey: chat.tokenKey });
  const clients = createSlackClients({ apiUrl: chat.apiUrl });
  const defaultBotToken = chat.botToken ?? null;

  /** A workspace's bot token, only for the organization it is connected to. */
  async function tokenFor(teamId: string, organizationId: string): Promise<string | null> {
    const workspace = await workspaces.find(teamId);
    if (!workspace || workspace.organizationId !== organizationId) return null;
    return workspace.botToken ?? defaultBotToken;
  }

  const conversation: ConversationDeps = {
    events: inbox,
    workspaces,
    bindings: createChannelBindings(dataSource),
    threads: deps.notifications,
    jobs: deps.jobs,
    checks: deps.checks,
    defaultBotToken,
    poster: (token) => createSlackPoster(clients.clientFor(token)),
    publicBaseUrl: config.notify.publicBaseUrl,
    logger: log,
  };

  const listenerDeps = { inbox, logger: log };
  const mounts: Mount[] = [];
  if (chat.signingSecret) mounts.push({ path: '/', router: createHttpChatApp(chat.signingSecret, { apiUrl: chat.apiUrl }, listenerDeps).router });
  if (chat.clientId && chat.clientSecret && chat.stateSecret) {
    const routes = createInstallRoutes(
      {
        clientId: chat.clientId,
        clientSecret: chat.clientSecret,
        stateSecret: chat.stateSecret,
        apiUrl: chat.apiUrl,
        redirectUri: `${config.notify.publicBaseUrl}${REDIRECT_PATH}`,
        authorizationUrl: chat.authorizeUrl,
      },
      { saveInstallation: (installation) => workspaces.saveInstallation(installation), logger: log },
    );
    mounts.push({ path: '/', router: routes });
  }

  return {
    inbox,
    workspaces,
    mounts,
    socket: chat.appToken ? createSocketModeChatApp(chat.appToken, { apiUrl: chat.apiUrl }, listenerDeps) : undefined,
    handleEvent: (eventId) => handleChatEvent(eventId, conversation),
    sink: new SlackProgressSink({ apiUrl: chat.apiUrl, tokenFor }),
  };
}
