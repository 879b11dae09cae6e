import type { DataSource } from 'typeorm';
import type { Mount } from '../api/app.js';
import { createCodehostClient, type CodehostClient } from '../codehost/codehost-client.js';
import type { Config } from '../config.js';
import { createWebhookReceipts, type WebhookReceipts } from '../jobs/webhook-receipts.js';
import type { Logger } from '../logger.js';
import type { Queue, QueueJobDefinition } from '../queue/index.js';
import type { WriteBatch } from '../store/write-batch.js';
import { createInstallationRecords } from '../repos/installation-records.js';
import { codehostDeliveryHandler } from '../webhooks/codehost-handler.js';
import { codehostReceiver } from '../webhooks/codehost-receiver.js';
import { webhookDeliveryJob, webhookSweepJob, type DeliveryHandlers } from '../workflows/webhook-delivery.js';
import { webhookDeliveryStarter } from '../workflows/webhook-delivery-starter.js';

/** Code-host payloads can be large (a push with many commits); GitHub caps deliveries at 25 MB, we take 1 MB. */
export const CODEHOST_BODY_LIMIT = '1mb';

/** Signed webhooks: their durable receipts, the receivers, and the queue jobs that process and sweep receipts. */
export interface WebhookParts {
  receipts: WebhookReceipts;
  /** `POST /api/webhooks/codehost` when CODEHOST_WEBHOOK_SECRET is set. */
  mounts: Mount[];
  /** `webhook-delivery` and the periodic `webhook-receipt-sweep`, for the processors. */
  queueJobs: QueueJobDefinition[];
  /** The code host's API as the app, when CODEHOST_APP_ID and CODEHOST_PRIVATE_KEY are set. */
  codehost: CodehostClient | undefined;
}

/** `handlers` replaces a provider's delivery handler (tests); the code host's is composed here by default. */
export function composeWebhooks(deps: { config: Config; logger: Logger; dataSource: DataSource; queue: Queue; writes: WriteBatch; handlers?: DeliveryHandlers }): WebhookParts {
  const { config, logger } = deps;
  const { leaseMs, sweepIntervalMs } = config.webhooks;
  const receipts = createWebhookReceipts({ dataSource: deps.dataSource, writes: deps.writes, starter: webhookDeliveryStarter(deps.queue), leaseMs });
  const log = logger.child({ component: 'webhooks' });
  const mounts: Mount[] = [];
  const { webhookSecret, previousWebhookSecret } = config.codehost;
  if (webhookSecret) {
    const secrets: [string, ...string[]] = previousWebhookSecret ? [webhookSecret, previousWebhookSecret] : [webhookSecret];
    mounts.push({ path: '/api/webhooks/codehost', router: codehostReceiver(receipts, { secrets, bodyLimit: CODEHOST_BODY_LIMIT, logger: log }) });
  }
  // The code host's installation reports are recorded under the provider name `qa installations connect` uses.
  const installations = createInstallationRecords({ dataSource: deps.dataSource, provider: 'codehost' });
  const { appId, privateKey, apiUrl } = config.codehost;
  const codehost = appId !== undefined && privateKey !== undefined ? createCodehostClient({ appId, privateKey, apiUrl }) : undefined;
  const handlers: DeliveryHandlers = { codehost: codehostDeliveryHandler({ installations }), ...deps.handlers };
  return {
    receipts,
    mounts,
    queueJobs: [webhookDeliveryJob({ receipts, handlers }), webhookSweepJob({ receipts, everyMs: sweepIntervalMs })],
    codehost,
  };
}
