import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Telemetry } from '../core/telemetry.js';

/** The label of a request no route answered (a 404, a static file, a request refused before its route). */
export const UNMATCHED_ROUTE = 'unmatched';

/** A route's pattern under its mount: `/api/jobs` and `/` make `/api/jobs`, as the request was written. */
export function routePattern(baseUrl: string, path: string): string {
  const joined = `${baseUrl.toLowerCase()}${path}`;
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/**
 * Counts every request by its route pattern (`/api/jobs/:id`), never its path. The pattern is taken when Express
 * matches the route: then `req.baseUrl` is the mount path, which an error passed on to the app's error mapper has
 * unwound by the time the answer is sent. Mount paths are literal and lower-case, and Express matches them without
 * regard to case, so the base is lower-cased: `/API/JOBS/x` is counted as `/api/jobs/:id`.
 */
export function recordRequests(telemetry: Telemetry): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const began = performance.now();
    let pattern: string | undefined;
    let route: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: { path?: unknown } | undefined) {
        route = value;
        pattern = typeof value?.path === 'string' ? routePattern(req.baseUrl, value.path) : undefined;
      },
    });
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      telemetry.httpRequest(pattern ?? UNMATCHED_ROUTE, req.method, res.statusCode, (performance.now() - began) / 1000);
    };
    res.once('finish', count);
    // A client that went away before the answer ended (an event stream it stopped following): counted all the same.
    res.once('close', count);
    next();
  };
}
