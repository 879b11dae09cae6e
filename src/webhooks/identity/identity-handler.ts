import { z } from 'zod';
import { directoryChangeOf, identityEnvelope } from '../../core/identity-events.js';
import { webhookPayloadInvalid } from '../../core/webhook-receipt.js';
import type { DirectoryWriter } from '../../identity/directory-writer.js';
import type { ClaimedReceipt } from '../../jobs/webhooks/webhook-receipts.js';

export interface IdentityHandlerContext {
  logger: { info(object: Record<string, unknown>, message: string): void };
}

/**
 * The `identity` provider's delivery handler, run by the `webhook-delivery` queue job on a claimed receipt: the
 * stored body is read again (a receipt outlives a deploy), and the change it asks for is applied to the access
 * directory in one transaction. An event the directory does not keep is completed without effect; a malformed one
 * throws `webhook.payload_invalid`, so the receipt fails and, retried to no avail, is left dead for an operator.
 */
export function identityDeliveryHandler({ directory }: { directory: DirectoryWriter }) {
  return async (receipt: ClaimedReceipt, context: IdentityHandlerContext): Promise<void> => {
    const envelope = identityEnvelope.safeParse(receipt.payload);
    if (!envelope.success) throw webhookPayloadInvalid(receipt.event, envelope.error);
    let change;
    try {
      change = directoryChangeOf(envelope.data);
    } catch (error) {
      if (error instanceof z.ZodError) throw webhookPayloadInvalid(receipt.event, error);
      throw error;
    }
    if (!change) {
      context.logger.info({}, 'identity event the directory does not keep; completed without effect');
      return;
    }
    const outcome = await directory.apply(change);
    context.logger.info(
      { table: change.table, id: change.id, kind: change.kind, applied: outcome.applied, deleted: outcome.deleted },
      outcome.applied ? 'access directory updated' : outcome.deleted ? 'deleted in the directory before; this late event changes nothing' : 'identity event older than the directory; nothing changed',
    );
  };
}
