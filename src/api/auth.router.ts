import { Router } from 'express';
import { AppError, ErrorCode } from '../core/errors.js';
import { safeReturnTo } from '../identity/return-to.js';
import { SIGN_IN_TIME_LIMIT_MS } from '../identity/sign-in-attempts.js';
import { readRequestSession } from './auth.js';
import { clearCookie, readCookie, setCookie } from './cookies.js';
import type { PeopleDeps } from './people.js';

const noAttempt = () =>
  new AppError({ kind: 'user', code: ErrorCode.SigninFailed, status: 400, message: 'Sign-in failed: no sign-in under way in this browser (expired, already used, or begun elsewhere); start again at /auth/login' });

/**
 * `/auth`: OpenID Connect sign-in (authorization code + PKCE, `state`, `nonce`) and sign-out. The session id is new
 * at every sign-in (an id a browser carried before is never promoted), and only its hash is stored.
 */
export function createAuthRouter(people: PeopleDeps): Router {
  const { cookies } = people;
  const router = Router();

  router.get('/login', async (req, res) => {
    const returnTo = safeReturnTo(req.query.returnTo);
    const checks = people.oidc.newChecks();
    const target = await people.oidc.authorizationUrl(checks);
    const cookieValue = await people.attempts.begin({ ...checks, returnTo }, people.now());
    setCookie(res, cookies, cookies.signIn, cookieValue, SIGN_IN_TIME_LIMIT_MS);
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, target.href);
  });

  router.get('/callback', async (req, res) => {
    const cookieValue = readCookie(req, cookies.signIn);
    // Taken before anything else: whatever happens next, this sign-in's checks cannot be used a second time.
    const checks = cookieValue === undefined ? null : await people.attempts.take(cookieValue, people.now());
    clearCookie(res, cookies, cookies.signIn);
    if (checks === null) throw noAttempt();
    // The URL the provider sent the browser to, as the browser saw it (behind a proxy req.url is not that).
    const currentUrl = new URL(`${people.publicBaseUrl}${req.originalUrl}`);
    const identity = await people.oidc.redeem(currentUrl, checks);

    const previous = readCookie(req, cookies.session);
    if (previous !== undefined) {
      const old = await people.sessions.resolve(previous, people.now());
      if (old !== null) await people.sessions.destroy(old.idHash);
    }
    const session = await people.sessions.create(identity.sub, people.now());
    setCookie(res, cookies, cookies.session, session.id, people.sessionMaxAgeMs);
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, `${people.publicBaseUrl}${checks.returnTo}`);
  });

  router.post('/logout', async (req, res) => {
    const read = await readRequestSession(req, res, people);
    if (read !== null) await people.sessions.destroy(read.session.idHash);
    clearCookie(res, cookies, cookies.session);
    res.status(204).end();
  });

  return router;
}
