import type { DataSource } from 'typeorm';
import { readJobForNotification } from '../jobs/job-for-notification.js';
import { createNotificationOutbox } from '../jobs/notification-outbox.js';
import type { Telemetry } from '../core/telemetry.js';
import type { Logger } from '../logger.js';
import { createProgressDelivery, type DeliverySettings } from '../notify/deliver-progress.js';
import type { ProgressSinks } from '../notify/progress-sink.js';
import { defineQueueJob, type QueueJobDefinition } from '../queue/index.js';
import { NOTIFY_DELIVERY_JOB, notifyDeliveryPayload } from './notify-starter.js';

export interface NotifyDeliveryJobDeps {
  dataSource: DataSource;
  sinks: ProgressSinks;
  settings: DeliverySettings;
  logger: Logger;
  telemetry?: Telemetry;
}

/**
 * The `notify-delivery` queue job: src/notify's handler over the outbox and the job reads of src/jobs. A delivery
 * that is not done runs again as the same queue job at the time it names (throttle, Retry-After, back-off); a
 * failure to deliver is the handler's outcome, never a failed queue job, so the queue's own retries are left for
 * the database being away.
 */
export function notifyDeliveryJob({ dataSource, sinks, settings, logger, telemetry }: NotifyDeliveryJobDeps): QueueJobDefinition {
  const delivery = createProgressDelivery({
    outbox: createNotificationOutbox(dataSource),
    read: (jobId) => readJobForNotification(dataSource, jobId),
    sinks,
    settings,
    logger: logger.child({ component: 'notify' }),
    telemetry,
  });
  return defineQueueJob({
    name: NOTIFY_DELIVERY_JOB,
    payload: notifyDeliveryPayload,
    // A progress edit never waits behind the browser runs it reports on.
    light: true,
    handle: async ({ jobId }) => {
      const outcome = await delivery.deliver(jobId);
      return outcome === 'done' ? undefined : outcome;
    },
  });
}
