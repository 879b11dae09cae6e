import type { DataSource } from 'typeorm';
import type { Mount } from '../api/app.js';
import { createCodehostClient, type CodehostClient } from '../codehost/codehost-client.js';
import { createPullRequestConversation } from '../codehost/pull-request-conversation.js';
import { createPullRequestFiles } from '../codehost/pull-request-files.js';
import type { Config } from '../config.js';
import type { CheckService } from '../jobs/check-service.js';
import type { JobService } from '../jobs/job-service.js';
import type { NotificationOutbox } from '../jobs/notification-outbox.js';
import { previewDeploymentUrl } from '../jobs/codehost/pull-request-records.js';
import { createWebhookReceipts, type WebhookReceipts } from '../jobs/webhooks/webhook-receipts.js';
import type { Logger } from '../logger.js';
import type { ProgressSink } from '../notify/progress-sink.js';
import type { CodehostChannelContext } from '../core/channel-context.js';
import type { Queue } from '../queue/index.js';
import type { WriteBatch } from '../store/write-batch.js';
import { findCodehostRepository } from '../repos/codehost-repositories.js';
import { createInstallationRecords } from '../repos/installation-records.js';
import { codehostDeliveryHandler, type CodehostEventHandler } from '../webhooks/codehost/codehost-handler.js';
import { issueCommentHandler } from '../webhooks/codehost/issue-comment-handler.js';
import { codehostReceiver } from '../webhooks/codehost/codehost-receiver.js';
import { identityDeliveryHandler } from '../webhooks/identity/identity-handler.js';
import { identityReceiver } from '../webhooks/identity/identity-receiver.js';
import { createDirectoryWriter } from '../identity/directory-writer.js';
import { deploymentStatusEventHandler, pullRequestEventHandler } from '../webhooks/codehost/pull-request-handler.js';
import { NO_COVERAGE, type CoverageSource } from '../webhooks/codehost/pull-request-selection.js';
import { pushEventHandler, type Reindexer } from '../webhooks/codehost/push-handler.js';
import { createSelectionNotice } from '../notify/codehost/selection-notice.js';
import { composeCodehostSink } from './codehost-sink.js';
import type { DeliveryHandlers } from '../workflows/webhook-delivery.js';
import type { DeliveryRecorder } from '../webhooks/delivery-intake.js';
import type { Telemetry } from '../core/telemetry.js';
import { webhookDeliveryStarter } from '../workflows/webhook-delivery-starter.js';

/** Code-host payloads can be large (a push with many commits); GitHub caps deliveries at 25 MB, we take 1 MB. */
export const CODEHOST_BODY_LIMIT = '1mb';

/** Identity deliveries carry one directory object each; WorkOS-style events are a few kilobytes. */
export const IDENTITY_BODY_LIMIT = '256kb';

/** Signed webhooks: their durable receipts, the receivers, and each provider's delivery handler. */
export interface WebhookParts {
  receipts: WebhookReceipts;
  /**
   * `POST /api/webhooks/codehost` when CODEHOST_WEBHOOK_SECRET is set; `POST /api/webhooks/identity` when
   * IDENTITY_WEBHOOK_SIGNING_SECRET is set (unset: the route does not exist, 404).
   */
  mounts: Mount[];
  /** What the processors' `webhook-delivery` job (src/workflows/registry.ts) does with each provider's receipt. */
  handlers: DeliveryHandlers;
  /** The code host's API as the app, when CODEHOST_APP_ID and CODEHOST_PRIVATE_KEY are set. */
  codehost: CodehostClient | undefined;
  /** Where pull-request jobs' progress goes (a PR comment and a check run), when the client exists. */
  sink: ProgressSink<CodehostChannelContext> | undefined;
}

/** `handlers` replaces a provider's delivery handler (tests); the code host's is composed here by default. */
export function composeWebhooks(deps: {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  queue: Queue;
  writes: WriteBatch;
  jobs: JobService;
  checks: CheckService;
  notifications: NotificationOutbox;
  handlers?: DeliveryHandlers;
  /** The flows and coverage links pull requests choose their checks by (default: none, so every check runs). */
  coverage?: CoverageSource;
  /** Starts a re-index when the default branch moves; absent, `push` deliveries are completed without effect. */
  reindexer?: Reindexer;
  /** Counts the receipts by provider and outcome. */
  telemetry: Telemetry;
}): WebhookParts {
  const { config, logger } = deps;
  const { leaseMs } = config.webhooks;
  const receipts = createWebhookReceipts({ dataSource: deps.dataSource, writes: deps.writes, starter: webhookDeliveryStarter(deps.queue), leaseMs });
  const log = logger.child({ component: 'webhooks' });
  // What the receivers store through: the receipts, counted by provider and what each delivery came to.
  const recorder: DeliveryRecorder = {
    async record(delivery) {
      const recorded = await receipts.record(delivery);
      deps.telemetry.webhookReceipt(delivery.provider, recorded.outcome);
      return recorded;
    },
  };
  const mounts: Mount[] = [];
  const { webhookSecret, previousWebhookSecret } = config.codehost;
  if (webhookSecret) {
    const secrets: [string, ...string[]] = previousWebhookSecret ? [webhookSecret, previousWebhookSecret] : [webhookSecret];
    mounts.push({ path: '/api/webhooks/codehost', router: codehostReceiver(recorder, { secrets, bodyLimit: CODEHOST_BODY_LIMIT, logger: log }) });
  }
  const { signingSecret, previousSigningSecret } = config.identityWebhooks;
  if (signingSecret) {
    const secrets: [string, ...string[]] = previousSigningSecret ? [signingSecret, previousSigningSecret] : [signingSecret];
    mounts.push({ path: '/api/webhooks/identity', router: identityReceiver(recorder, { secrets, bodyLimit: IDENTITY_BODY_LIMIT, logger: log }) });
  }
  // The code host's installation reports are recorded under the provider name `qa installations connect` uses.
  const installations = createInstallationRecords({ dataSource: deps.dataSource, provider: 'codehost' });
  const { appId, privateKey, apiUrl } = config.codehost;
  const codehost = appId !== undefined && privateKey !== undefined ? createCodehostClient({ appId, privateKey, apiUrl }) : undefined;
  // Pull requests replay the active checks their change touches; deployments let the runs of a waiting repository
  // start. Until onboarding stores coverage links (its own issue), no repository has coverage: every check runs.
  const runs = {
    dataSource: deps.dataSource,
    jobs: deps.jobs,
    findRepository: (coordinates: Parameters<typeof findCodehostRepository>[1]) => findCodehostRepository(deps.dataSource, coordinates),
    coverage: deps.coverage ?? NO_COVERAGE,
    changedFiles: codehost ? createPullRequestFiles(codehost) : undefined,
    notice: codehost ? createSelectionNotice(codehost, { appId }) : undefined,
  };
  const events: Record<string, CodehostEventHandler> = { pull_request: pullRequestEventHandler(runs), deployment_status: deploymentStatusEventHandler(runs) };
  if (deps.reindexer) {
    events.push = pushEventHandler({ dataSource: deps.dataSource, reindexer: deps.reindexer, findRepository: runs.findRepository, now: () => new Date(), leaseMs });
  }
  // `/qa` comments need the API (the head commit, the commenter's permission, replies); without the app's
  // credentials they are completed without effect, as any event with no handler.
  if (codehost) {
    events.issue_comment = issueCommentHandler({
      botName: config.codehost.botName,
      findRepository: (coordinates) => findCodehostRepository(deps.dataSource, coordinates),
      pullRequests: createPullRequestConversation(codehost),
      threads: deps.notifications,
      jobs: deps.jobs,
      checks: deps.checks,
      deployments: (repositoryId, sha, environment) => previewDeploymentUrl(deps.dataSource, repositoryId, sha, environment),
    });
  }
  return {
    receipts,
    mounts,
    handlers: {
      codehost: codehostDeliveryHandler({ installations, events }),
      identity: identityDeliveryHandler({ directory: createDirectoryWriter({ dataSource: deps.dataSource }) }),
      ...deps.handlers,
    },
    codehost,
    sink: codehost ? composeCodehostSink({ config: config.codehost, dataSource: deps.dataSource, client: codehost }) : undefined,
  };
}
