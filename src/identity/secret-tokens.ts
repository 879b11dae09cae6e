import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh unguessable value (32 random bytes, base64url): session ids, sign-in cookie values. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a token: its lowercase hex SHA-256. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The shape every token of ours has; anything else is refused before a database round trip. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The CSRF token of a session: an HMAC keyed by the session id. Only the session's holder can compute it (the id
 * lives in an HttpOnly cookie and only its hash in the store), so it is bound to that one session and needs no
 * column of its own; it is handed out by `GET /api/session`.
 */
export function csrfTokenFor(sessionId: string): string {
  return createHmac('sha256', sessionId).update('qa-csrf-v1').digest('base64url');
}

/** Whether two strings are equal, in time that does not depend on where they differ. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
