import { In, IsNull, type DataSource } from 'typeorm';
import { accessStateOf, emailDomain, type AccessState, type ConnectionView, type MembershipView } from '../core/directory-access.js';
import { DirectoryConnection } from '../store/entities/directory-connection.entity.js';
import { DirectoryMembership } from '../store/entities/directory-membership.entity.js';
import { DirectoryUser } from '../store/entities/directory-user.entity.js';

export type { AccessState } from '../core/directory-access.js';

interface MembershipRow {
  status: string;
  role: string;
  directoryOrganizationId: string;
  organizationLive: string | number | null;
  serviceOrganizationId: string | null;
  serviceOrganizationName: string | null;
}

/**
 * What the access directory says of one directory user (the ID token's `sub`), right now: `ready` with the service
 * organizations they may use, or `setup_required` with what is missing (the rules: src/core/directory-access.ts).
 * Cheap enough to call on every request of a session: the user by primary key, the user's memberships with their
 * organizations and links by index, and, only when some organization qualifies and the user has an e-mail domain,
 * those organizations' SSO connections by index. Never throws for an unknown id.
 */
export async function readAccess(dataSource: DataSource, directoryUserId: string): Promise<AccessState> {
  const user = await dataSource.getRepository(DirectoryUser).findOne({
    select: { id: true, email: true, name: true },
    where: { id: directoryUserId, deletedAt: IsNull() },
  });
  const rows = await dataSource
    .getRepository(DirectoryMembership)
    .createQueryBuilder('membership')
    .select('membership.status', 'status')
    .addSelect('membership.role', 'role')
    .addSelect('membership.organization_id', 'directoryOrganizationId')
    .addSelect('directoryOrganization.id', 'organizationLive')
    .addSelect('service.id', 'serviceOrganizationId')
    .addSelect('service.name', 'serviceOrganizationName')
    .leftJoin('directory_organizations', 'directoryOrganization', 'directoryOrganization.id = membership.organization_id AND directoryOrganization.deleted_at IS NULL')
    .leftJoin('directory_organization_links', 'link', 'link.directory_organization_id = membership.organization_id')
    .leftJoin('organizations', 'service', 'service.id = COALESCE(link.organization_id, directoryOrganization.linked_organization_id)')
    .where('membership.user_id = :userId', { userId: directoryUserId })
    .andWhere('membership.deleted_at IS NULL')
    .getRawMany<MembershipRow>();
  const memberships: MembershipView[] = rows.map((row) => ({
    status: row.status,
    role: row.role,
    directoryOrganizationId: row.directoryOrganizationId,
    organizationLive: row.organizationLive !== null,
    serviceOrganization: row.serviceOrganizationId !== null ? { id: row.serviceOrganizationId, name: row.serviceOrganizationName ?? '' } : null,
  }));
  const candidates = [...new Set(memberships.filter((m) => m.status === 'active' && m.organizationLive && m.serviceOrganization).map((m) => m.directoryOrganizationId))];
  let connections: ConnectionView[] = [];
  if (user && candidates.length > 0 && emailDomain(user.email) !== null) {
    const found = await dataSource.getRepository(DirectoryConnection).find({
      select: { organizationId: true, state: true, deletedAt: true, domains: true },
      where: { organizationId: In(candidates) },
    });
    connections = found.map((connection) => ({
      directoryOrganizationId: connection.organizationId,
      state: connection.state,
      deleted: connection.deletedAt !== null,
      domains: connection.domains,
    }));
  }
  return accessStateOf({ user: user ? { id: user.id, email: user.email, name: user.name } : null, memberships, connections });
}
