import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import { createFileArtifactStorage } from '../artifacts/file-storage.js';
import { processEnvironment, type Config } from '../config.js';
import { createCheckService, type CheckService } from '../jobs/check-service.js';
import { createEventFeed, type EventFeed, type ReadProgress } from '../jobs/event-feed.js';
import { readJobChanges } from '../jobs/job-changes.js';
import { createJobUpdatesFeed, type JobUpdatesFeed } from '../jobs/job-updates-feed.js';
import { readJobProgress } from '../jobs/job-progress.js';
import { createJobService, type JobService } from '../jobs/job-service.js';
import { createNotificationOutbox, type NotificationOutbox } from '../jobs/notification-outbox.js';
import { createScheduleService, type ScheduleService } from '../jobs/schedule-service.js';
import type { Logger } from '../logger.js';
import type { ProgressSinks } from '../notify/progress-sink.js';
import { createPlanner } from '../planner/create-planner.js';
import type { Planner } from '../planner/planner.js';
import { createNotificationChannel, createQueue, type NotificationChannel, type Queue } from '../queue/index.js';
import { createRepositoryService, type RepositoryService } from '../repos/repository-service.js';
import { openStore } from '../store/open-store.js';
import { createWriteBatch, type WriteBatch } from '../store/write-batch.js';
import { onboardingStarter } from '../workflows/onboarding.js';
import { createIngestionStarter } from '../repos/start-ingestion.js';
import { createIngestionReads } from '../repos/ingestion-reads.js';
import { selectionCoverageOf } from '../repos/stored-coverage.js';
import { notifyDeliveryStarter } from '../workflows/notify-starter.js';
import { qaRunStarter } from '../workflows/run-starter.js';
import { createScheduleRepeats } from '../workflows/schedule-fire.js';
import type { ReadSecret } from '../workflows/test-values.js';
import type { ChatParts, composeChat } from './chat.js';
import { composeMetrics, type MetricsParts } from './metrics.js';
import { composeWebhooks, type WebhookParts } from './webhooks.js';
import type { ComposeOverrides } from './overrides.js';

/**
 * The service graph of one process, built once: one store, one queue, one write batch, one planner, one job
 * service, one event feed. The HTTP side and the job processors are started on top of it (http.ts, processors.ts).
 */
export interface Services {
  config: Config;
  logger: Logger;
  overrides: ComposeOverrides;
  dataSource: DataSource;
  queue: Queue;
  planner: Planner;
  artifacts: ArtifactStorage;
  readSecret: ReadSecret;
  jobs: JobService;
  repositories: RepositoryService;
  checks: CheckService;
  schedules: ScheduleService;
  /** Notified jobs' outbox: the bot's `inThread`, the delivery's state. */
  notifications: NotificationOutbox;
  /**
   * Where notified jobs' progress goes, by channel. A worker with none runs no `notify-delivery` jobs and leaves
   * them to a worker that has the channel.
   */
  progressSinks: ProgressSinks;
  /** The Slack bot, when any CHAT_* setting is given: receivers, install routes, the `chat-event` job, the sink. */
  chat: ChatParts | undefined;
  /** Signed webhooks (the code host): receipts, receivers, and their queue jobs. */
  webhooks: WebhookParts;
  /** Commits a few rows in one round trip (job creation, the chat inbox). */
  writes: WriteBatch;
  /** Shared pollers behind GET …/:id/events; the job processors of this process wake it after each commit. */
  feed: EventFeed;
  /** Shared pollers behind GET /api/jobs/updates: one read per organization per tick, whatever the number of streams. */
  updates: JobUpdatesFeed;
  /** This process's metrics: what every part records into, and `GET /metrics` (compose/metrics.ts). */
  metrics: MetricsParts;
  /** Closes what this graph opened: the feed, the write batch's pool, the queue's connections, the store unless given. */
  close(): Promise<void>;
}

type ComposeChat = typeof composeChat;

/** Whether any chat setting is given: without one, the service has no chat side at all. */
function chatConfigured(config: Config): boolean {
  const { signingSecret, appToken, botToken, clientId } = config.chat;
  return [signingSecret, appToken, botToken, clientId].some((value) => value !== undefined);
}

export async function composeServices(config: Config, logger: Logger, overrides: ComposeOverrides = {}): Promise<Services> {
  // Loaded only when chat is configured: Bolt and the Slack clients cost a process about 0.35 s of CPU to load.
  const chat = chatConfigured(config) ? await import('./chat.js') : undefined;
  const channel = await createNotificationChannel(config.queue.redisUrl);
  const dataSource = overrides.dataSource ?? (await openStore(config, logger));
  try {
    return buildServices(config, logger, overrides, dataSource, channel, chat?.composeChat);
  } catch (error) {
    if (!overrides.dataSource) await dataSource.destroy();
    throw error;
  }
}

function buildServices(
  config: Config,
  logger: Logger,
  overrides: ComposeOverrides,
  dataSource: DataSource,
  notificationChannel: NotificationChannel,
  composeChat: ComposeChat | undefined,
): Services {
  const metrics = composeMetrics(config, dataSource);
  const { telemetry } = metrics;
  const queue = createQueue(
    dataSource,
    { pollIntervalMs: config.queue.pollIntervalMs, lockLifetimeMs: config.queue.lockLifetimeMs, concurrency: config.worker.concurrency },
    notificationChannel,
    telemetry,
  );
  const writes = createWriteBatch(dataSource);
  const planner = overrides.planner ?? createPlanner(config.planner, telemetry);
  const artifacts = overrides.artifacts ?? createFileArtifactStorage(config.artifacts.dir);
  const environment = overrides.readSecret ? undefined : processEnvironment();
  const readSecret: ReadSecret = overrides.readSecret ?? ((name) => environment![name]);
  const read: ReadProgress = (jobId, after) => readJobProgress(dataSource, jobId, after);
  const feed = createEventFeed({ read: overrides.feedRead ? overrides.feedRead(read) : read, logger: logger.child({ component: 'event-feed' }) });
  const updates = createJobUpdatesFeed({
    read: (organizationId, after, upTo, limit) => readJobChanges(dataSource, organizationId, after, upTo, limit),
    logger: logger.child({ component: 'job-updates-feed' }),
    ...overrides.updatesTimings,
  });
  const jobs = createJobService({ dataSource, planner, runs: qaRunStarter(queue), artifacts, writes, notifications: notifyDeliveryStarter(queue), telemetry });
  const checks = createCheckService(dataSource);
  const notifications = createNotificationOutbox(dataSource);
  const chat = composeChat?.({ config, logger, dataSource, queue, writes, jobs, checks, notifications });
  const ingestionReads = createIngestionReads(dataSource);
  const startIngestion = createIngestionStarter({ dataSource, onboarding: onboardingStarter(queue) });
  const webhooks = composeWebhooks({ config, logger, dataSource, queue, writes, jobs, checks, notifications, telemetry, handlers: overrides.webhookHandlers, coverage: overrides.coverage ?? { coverageOf: async (scope) => selectionCoverageOf(await ingestionReads.repositoryCoverage(scope)) },
    // A push to the default branch re-indexes from that commit (incrementally: unchanged files are not read again).
    reindexer: overrides.reindexer ?? { reindex: async (organizationId, repositoryId, commitSha) => void (await startIngestion(organizationId, repositoryId, commitSha)) },
  });
  return {
    config,
    logger,
    overrides,
    dataSource,
    queue,
    planner,
    artifacts,
    readSecret,
    jobs,
    repositories: createRepositoryService({ dataSource, config: config.repositories, readSecret, onboarding: onboardingStarter(queue) }),
    checks,
    schedules: createScheduleService({ dataSource, repeats: createScheduleRepeats(queue.agenda) }),
    notifications,
    progressSinks: overrides.progressSinks ?? { ...(chat ? { chat: chat.sink } : {}), ...(webhooks.sink ? { codehost: webhooks.sink } : {}) },
    chat,
    webhooks,
    writes,
    feed,
    updates,
    metrics,
    async close() {
      feed.close();
      updates.close();
      await writes.close();
      // The job processors disconnect the queue when they stop; a process without them does it here.
      await queue.backend.disconnect();
      if (!overrides.dataSource) await dataSource.destroy();
    },
  };
}
