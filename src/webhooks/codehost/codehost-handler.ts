import { INSTALLATION_EVENTS, installationChange } from '../../core/codehost-installation.js';
import type { InstallationChange } from '../../core/codehost-installation.js';
import type { ClaimedReceipt } from '../../jobs/webhooks/webhook-receipts.js';

/** Where installation changes are recorded (src/repos/installation-records.ts). */
export interface InstallationRecorder {
  apply(change: InstallationChange): Promise<{ status: string; tombstoned: boolean }>;
}

export interface CodehostHandlerContext {
  logger: { info(object: Record<string, unknown>, message: string): void; warn(object: Record<string, unknown>, message: string): void };
}

/** Handles one kind of code-host event (`x-codehost-event`); throws to have the receipt retried with back-off. */
export type CodehostEventHandler = (receipt: ClaimedReceipt, context: CodehostHandlerContext) => Promise<void>;

const installationEvents: ReadonlySet<string> = new Set(INSTALLATION_EVENTS);

/** Records `installation` and `installation_repositories` as the code host reports them (never connected here). */
export function installationEventHandler(installations: InstallationRecorder): CodehostEventHandler {
  return async (receipt, context) => {
    const change = installationChange(receipt.event, receipt.payload);
    const action = typeof receipt.payload.action === 'string' ? receipt.payload.action : undefined;
    if (!change) {
      context.logger.info({ action }, 'code-host installation action that records nothing');
      return;
    }
    const outcome = await installations.apply(change);
    context.logger.info(
      { action, installationId: change.installationId, status: outcome.status, added: change.added.length, removed: change.removed.length, reportedAt: change.reportedAt.toISOString() },
      outcome.tombstoned ? 'code-host installation was deleted before; this late event changes nothing' : 'code-host installation recorded',
    );
  };
}

/**
 * The `codehost` provider's delivery handler, run by the `webhook-delivery` queue job on a claimed receipt: each
 * event goes to its handler by name (`installation` and `installation_repositories` are recorded; `pull_request`,
 * `deployment_status` and `issue_comment` start and steer runs when their handlers are given); an event with no
 * handler is completed without effect. A throw (a malformed payload, the database, the code host) leaves the receipt
 * failed, to be retried with back-off.
 */
export function codehostDeliveryHandler(deps: { installations: InstallationRecorder; events?: Readonly<Record<string, CodehostEventHandler>> }) {
  const onInstallation = installationEventHandler(deps.installations);
  const handlers = new Map<string, CodehostEventHandler>(Object.entries(deps.events ?? {}));
  for (const event of installationEvents) handlers.set(event, onInstallation);
  return async (receipt: ClaimedReceipt, context: CodehostHandlerContext): Promise<void> => {
    const handler = handlers.get(receipt.event);
    if (!handler) {
      context.logger.info({}, 'code-host event this service does not act on; completed without effect');
      return;
    }
    await handler(receipt, context);
  };
}
