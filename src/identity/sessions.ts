import { LessThanOrEqual, type DataSource } from 'typeorm';
import { Session } from '../store/entities/session.entity.js';
import { randomToken, TOKEN_SHAPE, tokenHash } from './secret-tokens.js';

export interface SessionSettings {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in. */
  absoluteMs: number;
}

/** A live session as the request middleware sees it. */
export interface ActiveSession {
  /** The cookie's value (never stored): the key of the CSRF token. */
  id: string;
  idHash: string;
  userId: string;
  organizationId: string | null;
}

/** `last_seen_at` is written at most this often per session, so reading a session is not a write per request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionStore {
  /** A new session for a user who just signed in, under a fresh id (never one the browser had before). */
  create(userId: string, now: Date): Promise<ActiveSession>;
  /** The live session of a cookie value, or null (malformed, unknown, idle too long, past its absolute expiry). */
  resolve(id: string, now: Date): Promise<ActiveSession | null>;
  /** Ends a session (sign-out, access gone); no-op for an unknown id. */
  destroy(idHash: string): Promise<void>;
  /** Ends every session of a directory user (the directory lost them). */
  destroyForUser(userId: string): Promise<number>;
  setOrganization(idHash: string, organizationId: string): Promise<void>;
}

export function createSessionStore(dataSource: DataSource, settings: SessionSettings): SessionStore {
  const sessions = dataSource.getRepository(Session);
  return {
    async create(userId, now) {
      const id = randomToken();
      const idHash = tokenHash(id);
      // Sessions nobody presents again are cleared as new ones begin: the table holds about the live sessions.
      await sessions.delete([{ expiresAt: LessThanOrEqual(now) }, { lastSeenAt: LessThanOrEqual(new Date(now.getTime() - settings.idleMs)) }]);
      await sessions.insert({ idHash, userId, organizationId: null, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + settings.absoluteMs) });
      return { id, idHash, userId, organizationId: null };
    },

    async resolve(id, now) {
      if (!TOKEN_SHAPE.test(id)) return null;
      const idHash = tokenHash(id);
      const session = await sessions.findOneBy({ idHash });
      if (session === null) return null;
      const idleEnd = session.lastSeenAt.getTime() + settings.idleMs;
      if (now.getTime() >= session.expiresAt.getTime() || now.getTime() >= idleEnd) {
        await sessions.delete({ idHash });
        return null;
      }
      if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) await sessions.update({ idHash }, { lastSeenAt: now });
      return { id, idHash, userId: session.userId, organizationId: session.organizationId };
    },

    async destroy(idHash) {
      await sessions.delete({ idHash });
    },

    async destroyForUser(userId) {
      const result = await sessions.delete({ userId });
      return result.affected ?? 0;
    },

    async setOrganization(idHash, organizationId) {
      await sessions.update({ idHash }, { organizationId });
    },
  };
}
