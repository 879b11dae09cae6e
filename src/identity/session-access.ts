import type { PersonPrincipal } from '../core/principal.js';
import type { AccessState } from './access-state.js';

export type AccessOrganization = { id: string; name: string; role: 'admin' | 'member' };

/** A session's standing for one request, decided from the directory's answer and the organization it chose. */
export type SessionStanding =
  | { state: 'setup_required'; missing: Array<'user' | 'organization' | 'membership'> }
  | {
      state: 'ready';
      user: { id: string; email: string | null; name: string | null };
      organizations: AccessOrganization[];
      organization: AccessOrganization;
      principal: PersonPrincipal;
    }
  /** The session was ready and lost its organization (user deleted, membership or connection ended): it ends. */
  | { state: 'revoked' };

/**
 * Pure: `chosenOrganizationId` is null until the session was first ready; then it names the organization in use,
 * and losing it ends the session rather than silently moving the person to another organization.
 */
export function sessionStanding(access: AccessState, chosenOrganizationId: string | null): SessionStanding {
  const organizations = access.state === 'ready' ? [...access.organizations].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)) : [];
  if (access.state !== 'ready' || organizations.length === 0) {
    if (chosenOrganizationId !== null) return { state: 'revoked' };
    return { state: 'setup_required', missing: access.state === 'ready' ? ['membership'] : access.missing };
  }
  const organization = chosenOrganizationId === null ? organizations[0]! : organizations.find((candidate) => candidate.id === chosenOrganizationId);
  if (organization === undefined) return { state: 'revoked' };
  return {
    state: 'ready',
    user: access.user,
    organizations,
    organization,
    principal: { kind: 'person', organizationId: organization.id, userId: access.user.id, role: organization.role },
  };
}
