import { z } from 'zod';
import type { NotificationStarter } from '../jobs/notification-outbox.js';
import type { Queue } from '../queue/index.js';
import { stageWorkflow } from './stage-workflow.js';

/** The queue job that delivers one job's progress to its channel, rescheduling itself until the final state is out. */
export const NOTIFY_DELIVERY_JOB = 'notify-delivery';

export const notifyDeliveryPayload = z.object({ jobId: z.string().uuid() });

/**
 * Starts notified jobs' progress deliveries for the job service: the queue job is written in the job's own
 * transaction, beside the outbox row, and workers are told after the commit (the first delivery posts "queued").
 */
export function notifyDeliveryStarter(queue: Queue): NotificationStarter {
  return {
    stage: async (jobId) => stageWorkflow(queue, { name: NOTIFY_DELIVERY_JOB, payload: notifyDeliveryPayload }, { jobId }),
  };
}
