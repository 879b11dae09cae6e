import { z } from 'zod';
import { enqueue, type Queue } from '../queue/index.js';
import type { WebhookDeliveryStarter } from '../jobs/webhooks/webhook-receipts.js';
import { stageWorkflow } from './stage-workflow.js';

/** The queue job that processes one stored webhook receipt (src/webhooks/process-delivery.ts). */
export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

export const webhookDeliveryPayload = z.object({ receiptId: z.string().uuid() });

const kind = { name: WEBHOOK_DELIVERY_JOB, payload: webhookDeliveryPayload };

export function webhookDeliveryStarter(queue: Queue): WebhookDeliveryStarter {
  return {
    stage: (receiptId) => stageWorkflow(queue, kind, { receiptId }),
    enqueue: async (receiptId) => {
      await enqueue(queue.agenda, kind, { receiptId });
    },
  };
}
