import type { ErrorRequestHandler, Router } from 'express';
import { notFoundError } from '../core/errors.js';
import type { NotFoundResource } from '../core/error-codes.js';

/**
 * Every id the service hands out is a lowercase UUID (`randomUUID`). MariaDB's default collation compares
 * case-insensitively and ignores trailing spaces, so an id in any other form must not reach a query: it would find
 * the row of the canonical id.
 */
const CANONICAL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isCanonicalId(value: unknown): value is string {
  return typeof value === 'string' && CANONICAL_ID.test(value);
}

/** An id from a request body: one in another form is an id this organization does not have (404, as unknown ones). */
export function assertIdShape(value: string, what: NotFoundResource, field: string): void {
  if (!isCanonicalId(value)) throw notFoundError(what, field);
}

/**
 * Path ids (`:id` and the like) answer 404 unless canonical, before any handler runs; `params` maps each path
 * parameter to what it names. A malformed percent-encoding (`/%ff`) fails Express's decoding of the parameter with a
 * URIError: that, too, is an id nobody has.
 */
export function guardPathIds(router: Router, params: Record<string, NotFoundResource>): void {
  for (const [param, what] of Object.entries(params)) {
    router.param(param, (_req, _res, next, value: unknown) => next(isCanonicalId(value) ? undefined : notFoundError(what)));
  }
}

/** Mounted last in a router: see `guardPathIds`. */
export function undecodablePathAsNotFound(what: NotFoundResource): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => next(error instanceof URIError ? notFoundError(what) : error);
}
