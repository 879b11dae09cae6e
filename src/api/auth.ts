import type { RequestHandler, Response } from 'express';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { authenticateApiKey } from '../identity/api-keys.js';

const unauthorized = () =>
  new AppError({ kind: 'user', code: ErrorCode.AuthUnauthorized, status: 401, message: 'Missing or invalid API key (Authorization: Bearer <key>)' });

/** The caller, as `requireApiKey` set it; the routers hand it to every use case. */
export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (principal === undefined) {
    // A wiring mistake, never the caller's: no use case may run for nobody.
    throw new AppError({ kind: 'unexpected', code: ErrorCode.AuthNoPrincipal, status: 500, message: 'A route that needs a caller is mounted without authentication' });
  }
  return principal;
}

/** `Authorization: Bearer <API key>`; the key decides the principal (res.locals.principal). */
export function requireApiKey(dataSource: DataSource): RequestHandler {
  return (req, res, next) => {
    const match = /^Bearer ([^\s]+)$/.exec(req.get('authorization') ?? '');
    if (!match) return next(unauthorized());
    authenticateApiKey(dataSource, match[1]!).then(
      (principal) => {
        if (!principal) return next(unauthorized());
        res.locals.principal = principal;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
