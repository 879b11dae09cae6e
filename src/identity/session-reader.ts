import type { ReadAccess } from './access-state.js';
import { sessionStanding, type SessionStanding } from './session-access.js';
import type { ActiveSession, SessionStore } from './sessions.js';

export interface ReadSession {
  session: ActiveSession;
  standing: Exclude<SessionStanding, { state: 'revoked' }>;
}

/**
 * A request's session and what it may reach, read afresh from the directory each time: a deletion or deactivation
 * the directory applied ends access at the very next request. A session that lost its organization is destroyed.
 */
export function createSessionReader(sessions: SessionStore, readAccess: ReadAccess) {
  return async function readSession(cookieValue: string, now: Date): Promise<ReadSession | null> {
    const session = await sessions.resolve(cookieValue, now);
    if (session === null) return null;
    const standing = sessionStanding(await readAccess(session.userId), session.organizationId);
    if (standing.state === 'revoked') {
      await sessions.destroy(session.idHash);
      return null;
    }
    if (standing.state === 'ready' && session.organizationId !== standing.organization.id) {
      // First ready read: the organization in use is remembered, and from now on losing it ends the session.
      await sessions.setOrganization(session.idHash, standing.organization.id);
      session.organizationId = standing.organization.id;
    }
    return { session, standing };
  };
}

export type SessionReader = ReturnType<typeof createSessionReader>;
