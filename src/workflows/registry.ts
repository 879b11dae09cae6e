import type { Telemetry } from '../core/telemetry.js';
import type { QueueJobDefinition } from '../queue/index.js';
import { CHAT_EVENT_JOB } from './chat-event-starter.js';
import { chatEventJob, type ChatEventHandler } from './chat-event.js';
import { CHAT_RECEIPT_PURGE_JOB, chatReceiptPurgeJob } from './chat-receipt-purge.js';
import { NOTIFY_DELIVERY_JOB } from './notify-starter.js';
import { notifyDeliveryJob, type NotifyDeliveryJobDeps } from './notify-delivery.js';
import { ONBOARDING_JOB, onboardingWorkflow, type OnboardingDeps } from './onboarding.js';
import { qaRunWorkflow, type QaRunDeps } from './qa-run.js';
import { QA_RUN_JOB } from './run-starter.js';
import { SCHEDULE_FIRE_JOB, scheduleFireJob, type ScheduleFireDeps } from './schedule-fire.js';
import { WEBHOOK_DELIVERY_JOB } from './webhook-delivery-starter.js';
import { WEBHOOK_SWEEP_JOB, webhookDeliveryJob, webhookSweepJob, type DeliveryHandlers } from './webhook-delivery.js';
import type { WebhookReceipts } from '../jobs/webhooks/webhook-receipts.js';

/**
 * Every kind of queued work, by its queue job name. `workerJobs` defines each one a process can run.
 */
export const QUEUE_JOB_NAMES = [
  QA_RUN_JOB, SCHEDULE_FIRE_JOB, NOTIFY_DELIVERY_JOB, CHAT_EVENT_JOB, CHAT_RECEIPT_PURGE_JOB, WEBHOOK_DELIVERY_JOB,
  WEBHOOK_SWEEP_JOB, ONBOARDING_JOB,
] as const;

/** What the worker's jobs need; a part left out leaves its jobs queued for a worker that has it. */
export interface WorkerJobsDeps {
  runs: QaRunDeps;
  /** The job service's create and the repeat jobs: `qa worker` and `qa start` always give them. */
  schedules?: Omit<ScheduleFireDeps, 'dataSource'>;
  /** Progress deliveries run where their channel's sink is (src/notify). */
  deliveries?: Omit<NotifyDeliveryJobDeps, 'dataSource'>;
  /** The chat bot's conversation, when CHAT_* is configured. */
  chat?: { handleEvent: ChatEventHandler; receiptRetentionHours: number };
  /** Signed webhooks: the durable receipts, each provider's handler, and how often the sweep runs. */
  webhooks?: { receipts: WebhookReceipts; handlers: DeliveryHandlers; sweepEveryMs?: number; telemetry?: Telemetry };
  /** Repository onboarding: the steps' implementations (ports), the job service's create and the catalog bounds. */
  onboarding?: Omit<OnboardingDeps, 'dataSource'>;
}

/** The one list of the queue jobs a worker runs, built from what this process has. */
export function workerJobs(deps: WorkerJobsDeps): QueueJobDefinition[] {
  const { dataSource } = deps.runs;
  const { schedules, deliveries, chat, webhooks, onboarding } = deps;
  return [
    qaRunWorkflow(deps.runs),
    ...(schedules ? [scheduleFireJob({ dataSource, ...schedules })] : []),
    ...(deliveries ? [notifyDeliveryJob({ dataSource, ...deliveries })] : []),
    // Receipts would otherwise pile up forever, one per delivery.
    ...(chat ? [chatEventJob(chat.handleEvent), chatReceiptPurgeJob(dataSource, { retentionHours: chat.receiptRetentionHours })] : []),
    ...(webhooks ? [webhookDeliveryJob(webhooks), webhookSweepJob({ receipts: webhooks.receipts, everyMs: webhooks.sweepEveryMs })] : []),
    ...(onboarding ? [onboardingWorkflow({ dataSource, ...onboarding })] : []),
  ];
}
