/**
 * Whether a directory user may read organization data, from what the access directory holds (issue 26, spec 5: "A
 * signed-in user stays on the setup screen until the matching user, organization and active membership exist").
 * Pure: src/identity/access-directory.ts reads the rows and asks here.
 */

export type MembershipRole = 'admin' | 'member';
export type MembershipStatus = 'active' | 'pending' | 'inactive';
export type MissingPiece = 'user' | 'organization' | 'membership';

export type AccessState =
  | { state: 'setup_required'; missing: MissingPiece[] }
  | {
      state: 'ready';
      user: { id: string; email: string | null; name: string | null };
      /** `id` is the SERVICE organization's id (the one API keys, chat workspaces and installations belong to). */
      organizations: Array<{ id: string; name: string; role: MembershipRole }>;
    };

/** A live (not deleted) membership of the user, with what its organization resolved to. */
export interface MembershipView {
  status: string;
  role: string;
  directoryOrganizationId: string;
  /** Whether the directory organization exists and is not deleted. */
  organizationLive: boolean;
  /** The service organization it is linked to (explicit link first, then `external_id`), if that exists. */
  serviceOrganization: { id: string; name: string } | null;
}

/** A connection of one of the user's organizations (deleted ones included: a deletion takes access away too). */
export interface ConnectionView {
  directoryOrganizationId: string;
  state: string;
  deleted: boolean;
  domains: readonly string[];
}

export interface AccessFacts {
  user: { id: string; email: string | null; name: string | null } | null;
  memberships: readonly MembershipView[];
  connections: readonly ConnectionView[];
}

/** The lower-case domain of an e-mail address, or null when it has none. */
export function emailDomain(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).toLowerCase() : null;
}

/**
 * Whether an organization's SSO connections take it away from a person of `domain`: some connection covering the
 * domain is inactive or deleted, and no active one covers it (a connection replaced by a new one does not lock
 * people out).
 */
export function blockedByConnections(connections: readonly ConnectionView[], directoryOrganizationId: string, domain: string | null): boolean {
  if (domain === null) return false;
  const covering = connections.filter((connection) => connection.directoryOrganizationId === directoryOrganizationId && connection.domains.includes(domain));
  const usable = (connection: ConnectionView) => !connection.deleted && connection.state === 'active';
  return covering.some((connection) => !usable(connection)) && !covering.some(usable);
}

/**
 * `ready` once the user exists and at least one ACTIVE membership leads to a live directory organization linked to a
 * service organization (and not taken away by an SSO connection); only those organizations are listed, one entry per
 * service organization, `admin` if any of its memberships is. Otherwise `setup_required`, naming what is missing:
 * - `user`: the user is unknown or deleted;
 * - `organization`: none of the user's memberships (any status) leads to a live, linked organization;
 * - `membership`: no active membership leads to one (pending, inactive, missing, or cut off by a connection).
 */
export function accessStateOf(facts: AccessFacts): AccessState {
  const domain = emailDomain(facts.user?.email ?? null);
  const resolved = facts.memberships.filter((membership) => membership.organizationLive && membership.serviceOrganization !== null);
  const usable = resolved.filter(
    (membership) => membership.status === 'active' && !blockedByConnections(facts.connections, membership.directoryOrganizationId, domain),
  );
  if (facts.user === null || usable.length === 0) {
    const missing: MissingPiece[] = [];
    if (facts.user === null) missing.push('user');
    if (resolved.length === 0) missing.push('organization');
    if (usable.length === 0) missing.push('membership');
    return { state: 'setup_required', missing };
  }
  const organizations = new Map<string, { id: string; name: string; role: MembershipRole }>();
  for (const membership of usable) {
    const service = membership.serviceOrganization!;
    const role: MembershipRole = membership.role === 'admin' ? 'admin' : 'member';
    const known = organizations.get(service.id);
    if (!known) organizations.set(service.id, { id: service.id, name: service.name, role });
    else if (role === 'admin') known.role = 'admin';
  }
  return {
    state: 'ready',
    user: facts.user,
    organizations: [...organizations.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  };
}
