import { z } from 'zod';

/**
 * 202 of a signed webhook delivery (code host, identity provider): stored as a durable receipt before this answer.
 * `receipt`: `accepted` (new, queued), `requeued` (failed before, queued again), `duplicate` (done or still queued),
 * `in_progress` (being processed under a live lease). A delivery id received before with another body is 409.
 * src/webhooks/delivery-intake.ts answers it (that zone cannot import this file; the OpenAPI test checks a real one).
 */
export const deliveryReceivedSchema = z.object({
  deliveryId: z.string(),
  receipt: z.enum(['accepted', 'requeued', 'duplicate', 'in_progress']),
});
