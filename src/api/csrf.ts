import type { Request } from 'express';
import { AppError, ErrorCode } from '../core/errors.js';
import { csrfTokenFor, sameSecret } from '../identity/secret-tokens.js';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header a signed-in page sends its session's CSRF token in (from `GET /api/session`). */
export const CSRF_HEADER = 'x-csrf-token';

const refused = (message: string) => new AppError({ kind: 'user', code: ErrorCode.CsrfRefused, status: 403, message });

/**
 * Both defences for a state-changing request authenticated by the session cookie: the synchronizer token of that
 * session in `x-csrf-token` (another site can neither read it nor set the header without a CORS preflight we never
 * allow), and `Origin`, when the browser sends it, equal to the service's own. Safe methods change nothing and pass.
 * Own code rather than csrf-csrf/csrf-sync: the token is derived from the session id (secret-tokens.ts), so these
 * few lines are all there is.
 */
export function checkCsrf(req: Request, sessionId: string, expectedOrigin: string): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.get('origin');
  if (origin !== undefined && origin !== expectedOrigin) throw refused('The request comes from another origin');
  const presented = req.get(CSRF_HEADER);
  if (presented === undefined || !sameSecret(presented, csrfTokenFor(sessionId))) {
    throw refused(`A request made with the session cookie needs its session's ${CSRF_HEADER} header (GET /api/session gives it)`);
  }
}
