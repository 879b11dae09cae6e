/**
 * The administrator verbs (`qa migrate`, `qa keys create`, `qa flags`, `qa owners exclude`, `qa installations
 * connect`, `qa chat connect|disconnect`, `qa orgs link`): each opens the store, does one thing, and closes it. They talk to the database, not to the API.
 */
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { ErrorCode, userError } from '../core/errors.js';
import type { Capability } from '../core/execution.js';
import type { Logger } from '../logger.js';
import { createApiKey } from '../identity/api-keys.js';
import { linkDirectoryOrganization, type DirectoryLinkOutcome } from '../identity/directory-links.js';
import { createChatWorkspaces } from '../jobs/chat/chat-workspaces.js';
import { Organization } from '../store/entities/organization.entity.js';
import { setCapabilityPaused } from '../store/execution-flags.js';
import { openStore } from '../store/open-store.js';
import { connectInstallation, excludeOwner } from '../store/repository-admission.js';

/** `qa migrate`: creates the database if needed, brings its schema up to date, and closes it again. */
export async function migrate(config: Config, logger: Logger): Promise<void> {
  const dataSource = await openStore(config, logger);
  await dataSource.destroy();
  logger.info('database schema is up to date');
}

/** `qa keys create`: a new API key for the organization `orgSlug` (created if needed). Returns the full key. */
export async function issueApiKey(config: Config, logger: Logger, orgSlug: string, label?: string): Promise<string> {
  return withStore(config, logger, async (dataSource) => (await createApiKey(dataSource, orgSlug, label)).key);
}

/** `qa flags pause|resume`: switches a capability for every organization, or for the one with slug `orgSlug`. */
export async function setExecutionFlag(config: Config, logger: Logger, capability: Capability, paused: boolean, orgSlug?: string): Promise<void> {
  await withStore(config, logger, async (dataSource) => {
    const organization = orgSlug === undefined ? undefined : await dataSource.getRepository(Organization).findOneBy({ slug: orgSlug });
    if (orgSlug !== undefined && !organization) throw userError(ErrorCode.OrganizationNotFound, `No organization with slug "${orgSlug}"`);
    await setCapabilityPaused(dataSource, capability, paused, organization?.id);
    logger.info({ capability, paused, organization: orgSlug ?? 'all' }, 'execution flag set');
  });
}

/** `qa owners exclude`: refuses the owner's repositories from now on. */
export async function excludeRepositoryOwner(config: Config, logger: Logger, owner: string): Promise<void> {
  await withStore(config, logger, (dataSource) => excludeOwner(dataSource, owner));
}

/** `qa installations connect`: accepts the installation's repositories for the organization with slug `orgSlug`. */
export async function connectCodeHostInstallation(config: Config, logger: Logger, provider: string, installationId: string, orgSlug: string): Promise<void> {
  await withStore(config, logger, (dataSource) => connectInstallation(dataSource, provider, installationId, orgSlug));
}

/** `qa orgs link`: the identity provider's organization `identityOrgId` reaches the organization `orgSlug`. */
export async function linkIdentityOrganization(config: Config, logger: Logger, orgSlug: string, identityOrgId: string): Promise<DirectoryLinkOutcome> {
  return withStore(config, logger, (dataSource) => linkDirectoryOrganization(dataSource, orgSlug, identityOrgId));
}

/** `qa chat connect`: the Slack workspace serves the organization with that slug from now on. */
export async function connectChatWorkspace(config: Config, logger: Logger, input: { teamId: string; organizationSlug: string; teamName?: string }) {
  return withStore(config, logger, (dataSource) => createChatWorkspaces({ dataSource, tokenKey: config.chat.tokenKey }).connect(input));
}

/** `qa chat disconnect`: the workspace serves no organization (the bot says how to connect it). */
export async function disconnectChatWorkspace(config: Config, logger: Logger, teamId: string): Promise<void> {
  await withStore(config, logger, (dataSource) => createChatWorkspaces({ dataSource, tokenKey: config.chat.tokenKey }).disconnect(teamId));
}

/** `qa webhooks list`: received deliveries, newest first (only failed and dead ones with `failed`). */
export async function listWebhookReceipts(config: Config, logger: Logger, options: { failed: boolean; limit: number }) {
  return withStore(config, logger, async (dataSource) => (await receiptsOf(config, dataSource)).list(options));
}

/** `qa webhooks redeliver`: a failed or dead receipt is queued again with fresh attempts; workers pick it up. */
export async function redeliverWebhookReceipt(config: Config, logger: Logger, id: string): Promise<void> {
  await withStore(config, logger, async (dataSource) => {
    const outcome = await (await receiptsOf(config, dataSource)).redeliver(id);
    if (outcome === 'not_found') throw userError(ErrorCode.WebhookReceiptNotFound, `No webhook delivery with the id "${id}"`, { status: 404 });
    if (outcome === 'not_failed') throw userError(ErrorCode.WebhookReceiptNotFailed, `Delivery "${id}" has not failed; only a failed or dead delivery is redelivered`, { status: 409 });
  });
}

/**
 * The receipts over an administrator's connection: a queue of their own to requeue on, no write batch needed. The
 * queue (Agenda) and the receipts are loaded here, for the webhook verbs only: the other verbs start faster without.
 */
async function receiptsOf(config: Config, dataSource: DataSource) {
  const [{ InProcessNotificationChannel, createQueue }, { createWriteBatch }, { webhookDeliveryStarter }, { createWebhookReceipts }] = await Promise.all([
    import('../queue/index.js'),
    import('../store/write-batch.js'),
    import('../workflows/webhook-delivery-starter.js'),
    import('../jobs/webhooks/webhook-receipts.js'),
  ]);
  const queue = createQueue(dataSource, { pollIntervalMs: config.queue.pollIntervalMs, lockLifetimeMs: config.queue.lockLifetimeMs, concurrency: 1 }, new InProcessNotificationChannel());
  return createWebhookReceipts({ dataSource, writes: createWriteBatch(dataSource), starter: webhookDeliveryStarter(queue) });
}

/** Opens the store for one administrator verb and closes it again. */
async function withStore<T>(config: Config, logger: Logger, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = await openStore(config, logger);
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
