import type { RequestHandler, Response } from 'express';
import type { DataSource } from 'typeorm';
import { AppError } from '../core/errors.js';
import { verifyApiKey } from '../store/api-keys.js';

const unauthorized = () =>
  new AppError({ kind: 'user', code: 'auth.unauthorized', status: 401, message: 'Missing or invalid API key (Authorization: Bearer <key>)' });

/** The caller's organization, as `requireApiKey` set it. */
export function organizationOf(res: Response): string {
  return res.locals.organizationId as string;
}

/** `Authorization: Bearer <API key>`; the key decides the organization (res.locals.organizationId). */
export function requireApiKey(dataSource: DataSource): RequestHandler {
  return (req, res, next) => {
    const match = /^Bearer ([^\s]+)$/.exec(req.get('authorization') ?? '');
    if (!match) return next(unauthorized());
    verifyApiKey(dataSource, match[1]!).then(
      (organization) => {
        if (!organization) return next(unauthorized());
        res.locals.organizationId = organization.id;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
