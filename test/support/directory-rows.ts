import type { DataSource } from 'typeorm';
import { DirectoryMembership } from '../../src/store/entities/directory-membership.entity.js';
import { DirectoryOrganization } from '../../src/store/entities/directory-organization.entity.js';
import { DirectoryUser } from '../../src/store/entities/directory-user.entity.js';

const version = () => ({ sourceUpdatedAt: new Date(), deliveryCreatedAt: new Date(), eventId: `event_${Math.random().toString(36).slice(2)}`, deletedAt: null });

/**
 * Puts a person in the access directory as its webhooks would leave it (user, organizations linked to service
 * organizations, active memberships), for tests about sessions rather than about how the directory fills up.
 */
export async function putInDirectory(
  store: DataSource,
  userId: string,
  organizations: Array<{ serviceOrganizationId: string; name: string; role: 'admin' | 'member' }>,
): Promise<void> {
  await store.getRepository(DirectoryUser).save({ id: userId, email: `${userId}@example.com`, emailVerified: true, name: userId, ...version() });
  for (const organization of organizations) {
    const directoryOrganizationId = `org_${organization.serviceOrganizationId}`;
    await store.getRepository(DirectoryOrganization).save({ id: directoryOrganizationId, name: organization.name, externalId: null, linkedOrganizationId: organization.serviceOrganizationId, ...version() });
    await store.getRepository(DirectoryMembership).save({ id: `om_${userId}_${directoryOrganizationId}`, userId, organizationId: directoryOrganizationId, status: 'active', role: organization.role, ...version() });
  }
}

export async function deactivateMembership(store: DataSource, userId: string, serviceOrganizationId: string): Promise<void> {
  await store.getRepository(DirectoryMembership).update({ id: `om_${userId}_org_${serviceOrganizationId}` }, { status: 'inactive' });
}

export async function deleteDirectoryUser(store: DataSource, userId: string): Promise<void> {
  await store.getRepository(DirectoryUser).update({ id: userId }, { deletedAt: new Date() });
}
