import type { DataSource } from 'typeorm';
import { ErrorCode, userError } from '../core/errors.js';
import { ExcludedOwner } from './entities/excluded-owner.entity.js';
import { Installation } from './entities/installation.entity.js';
import { Organization } from './entities/organization.entity.js';
import { ReportedInstallation } from './entities/reported-installation.entity.js';

/** Adds an owner to the exclusion list (idempotent). */
export async function excludeOwner(dataSource: DataSource, owner: string): Promise<void> {
  await dataSource.createQueryBuilder().insert().into(ExcludedOwner).values({ owner: owner.toLowerCase() }).orIgnore().execute();
}

/** Whether an owner is excluded, by configuration (`EXCLUDED_OWNERS`) or by `qa owners exclude`. */
export async function isOwnerExcluded(dataSource: DataSource, configured: readonly string[], owner: string): Promise<boolean> {
  const name = owner.toLowerCase();
  if (configured.includes(name)) return true;
  return (await dataSource.getRepository(ExcludedOwner).countBy({ owner: name })) > 0;
}

/**
 * Connects an installation to the organization with slug `orgSlug`. An installation belongs to one organization:
 * connecting it elsewhere moves it (the administrator's decision, as in a dashboard).
 */
export async function connectInstallation(dataSource: DataSource, provider: string, installationId: string, orgSlug: string): Promise<void> {
  const organization = await dataSource.getRepository(Organization).findOneBy({ slug: orgSlug });
  if (!organization) throw userError(ErrorCode.OrganizationNotFound, `No organization with slug "${orgSlug}"`);
  await connectInstallationTo(dataSource, { provider, installationId, organizationId: organization.id, connectedBy: null, mayMove: true });
}

export interface InstallationConnection {
  provider: string;
  installationId: string;
  organizationId: string;
  /** `actorName` of who connects it; null for the operator's CLI. */
  connectedBy: string | null;
  /**
   * The operator (CLI) may move an installation from one organization to another; an organization's admin may
   * only connect one that is connected nowhere yet, so nobody takes another organization's installation away.
   */
  mayMove: boolean;
}

/** The one use case behind `qa installations connect` and `POST /api/installations/:id/connect`. */
export async function connectInstallationTo(dataSource: DataSource, connection: InstallationConnection): Promise<void> {
  const { provider, installationId, organizationId, connectedBy } = connection;
  const installations = dataSource.getRepository(Installation);
  const row = { provider, providerInstallationId: installationId, organizationId, connectedBy };
  if (connection.mayMove) {
    await installations.upsert(row, ['provider', 'providerInstallationId']);
    return;
  }
  // Insert-or-ignore, then read who has it: of two organizations racing for one installation, the first keeps it.
  await dataSource.createQueryBuilder().insert().into(Installation).values(row).orIgnore().execute();
  const current = await installations.findOneByOrFail({ provider, providerInstallationId: installationId });
  if (current.organizationId !== organizationId) {
    throw userError(ErrorCode.InstallationConnectedElsewhere, 'That installation is connected to another organization; ask the operator to move it', { status: 409 });
  }
}

/** Whether the installation is connected to this organization. */
export async function isInstallationConnected(dataSource: DataSource, provider: string, installationId: string, organizationId: string): Promise<boolean> {
  return (await dataSource.getRepository(Installation).countBy({ provider, providerInstallationId: installationId, organizationId })) > 0;
}

/**
 * `suspended` or `deleted` when the code host reported the installation so (its tokens no longer work, and a deleted
 * one never comes back); null when it is active or never reported. Connecting a repository through it is refused.
 */
export async function inactiveInstallationStatus(dataSource: DataSource, provider: string, installationId: string): Promise<'suspended' | 'deleted' | null> {
  const reported = await dataSource.getRepository(ReportedInstallation).findOneBy({ provider, providerInstallationId: installationId });
  return reported?.status === 'suspended' || reported?.status === 'deleted' ? reported.status : null;
}
