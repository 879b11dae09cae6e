import type { Request, RequestHandler, Response } from 'express';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { authenticateApiKey } from '../identity/api-keys.js';
import type { ReadSession } from '../identity/session-reader.js';
import { readCookie } from './cookies.js';
import { checkCsrf } from './csrf.js';
import { publicOrigin, type PeopleDeps } from './people.js';

const unauthorized = (people: boolean) =>
  new AppError({
    kind: 'user',
    code: ErrorCode.AuthUnauthorized,
    status: 401,
    message: people ? 'Sign in (GET /auth/login) or send an API key (Authorization: Bearer <key>)' : 'Missing or invalid API key (Authorization: Bearer <key>)',
  });

/** The caller, as `authenticate` set it; the routers hand it to every use case. */
export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (principal === undefined) {
    // A wiring mistake, never the caller's: no use case may run for nobody.
    throw new AppError({ kind: 'unexpected', code: ErrorCode.AuthNoPrincipal, status: 500, message: 'A route that needs a caller is mounted without authentication' });
  }
  return principal;
}

/** The session of a request `authenticate` or `readRequestSession` let through, if it came with one. */
export function sessionOf(res: Response): ReadSession | undefined {
  return res.locals.session as ReadSession | undefined;
}

/**
 * The request's session (cookie), CSRF-checked for a state-changing method; null without a live session. Sets
 * `res.locals.session`. Whether it is `ready` is for the caller to decide.
 */
export async function readRequestSession(req: Request, res: Response, people: PeopleDeps): Promise<ReadSession | null> {
  const cookie = readCookie(req, people.cookies.session);
  if (cookie === undefined) return null;
  const read = await people.readSession(cookie, people.now());
  if (read === null) return null;
  checkCsrf(req, read.session.id, publicOrigin(people));
  res.locals.session = read;
  return read;
}

/** Until the directory has the person, their session reaches no organization data. */
export function setupRequired(missing: readonly string[]): AppError {
  return new AppError({
    kind: 'user',
    code: ErrorCode.SetupRequired,
    status: 403,
    message: 'Your account is being set up: the access directory does not have your user, organization or active membership yet',
    details: { missing },
  });
}

/**
 * The caller of an organization route: `Authorization: Bearer <API key>` (a machine of the key's organization), or,
 * when sign-in is configured, the session cookie of a person whose directory access is `ready` (a person in the
 * organization in use, CSRF-checked). A key wins when both are sent. A pending session gets 403 `setup.required`.
 */
export function authenticate(dataSource: DataSource, people?: PeopleDeps): RequestHandler {
  return (req, res, next) => {
    const authorization = req.get('authorization');
    const attempt = async (): Promise<Principal> => {
      if (authorization !== undefined || people === undefined) {
        const match = /^Bearer ([^\s]+)$/.exec(authorization ?? '');
        const principal = match ? await authenticateApiKey(dataSource, match[1]!) : null;
        if (!principal) throw unauthorized(people !== undefined);
        return principal;
      }
      const read = await readRequestSession(req, res, people);
      if (read === null) throw unauthorized(true);
      if (read.standing.state !== 'ready') throw setupRequired(read.standing.missing);
      return read.standing.principal;
    };
    attempt().then(
      (principal) => {
        res.locals.principal = principal;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
