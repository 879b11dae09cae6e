import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { ErrorCode } from '../core/errors.js';

/** What `GET /metrics` answers with: the process's exposition (src/metrics), and the token it asks for, if any. */
export interface MetricsEndpoint {
  contentType: string;
  render(): Promise<string>;
  /** METRICS_TOKEN: when set, only `Authorization: Bearer <token>` is answered. */
  token?: string;
}

/** Compared as SHA-256 digests, so that neither the length nor the content of the token leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** `GET /metrics` in Prometheus's text format; 401 `metrics.unauthorized` without the right bearer token when one is set. */
export function createMetricsRouter(metrics: MetricsEndpoint): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (metrics.token !== undefined) {
      const [scheme, given] = (req.headers.authorization ?? '').split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || given === undefined || !sameToken(given, metrics.token)) {
        res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').json({ error: { code: ErrorCode.MetricsUnauthorized, message: 'This endpoint needs Authorization: Bearer <METRICS_TOKEN>' } });
        return;
      }
    }
    res.set('Content-Type', metrics.contentType).send(await metrics.render());
  });
  return router;
}
