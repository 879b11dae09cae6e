import { INSTALLATION_EVENTS, installationChange } from '../core/codehost-installation.js';
import type { InstallationChange } from '../core/codehost-installation.js';
import type { ClaimedReceipt } from '../jobs/webhook-receipts.js';

/** Where installation changes are recorded (src/repos/installation-records.ts). */
export interface InstallationRecorder {
  apply(change: InstallationChange): Promise<{ status: string; tombstoned: boolean }>;
}

export interface CodehostHandlerContext {
  logger: { info(object: Record<string, unknown>, message: string): void };
}

const installationEvents: ReadonlySet<string> = new Set(INSTALLATION_EVENTS);

/**
 * The `codehost` provider's delivery handler, run by the `webhook-delivery` queue job on a claimed receipt:
 * `installation` and `installation_repositories` are recorded as the code host reports them (never connected to an
 * organization here); every other event is completed without effect until its handler exists (README, "Not yet").
 * A throw (a malformed payload, the database) leaves the receipt failed, to be retried with back-off.
 */
export function codehostDeliveryHandler(deps: { installations: InstallationRecorder }) {
  return async (receipt: ClaimedReceipt, context: CodehostHandlerContext): Promise<void> => {
    if (!installationEvents.has(receipt.event)) {
      context.logger.info({}, 'code-host event without a handler yet; completed without effect');
      return;
    }
    const change = installationChange(receipt.event, receipt.payload);
    const action = typeof receipt.payload.action === 'string' ? receipt.payload.action : undefined;
    if (!change) {
      context.logger.info({ action }, 'code-host installation action that records nothing');
      return;
    }
    const outcome = await deps.installations.apply(change);
    context.logger.info(
      { action, installationId: change.installationId, status: outcome.status, added: change.added.length, removed: change.removed.length, reportedAt: change.reportedAt.toISOString() },
      outcome.tombstoned ? 'code-host installation was deleted before; this late event changes nothing' : 'code-host installation recorded',
    );
  };
}
