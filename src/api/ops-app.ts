import express, { type Express } from 'express';
import { ErrorCode } from '../core/errors.js';
import type { Telemetry } from '../core/telemetry.js';
import type { Logger } from '../logger.js';
import { errorMapper } from './error-mapper.js';
import { createHealthRouter, type ReadinessCheck } from './health.router.js';
import { recordRequests } from './http-metrics.js';
import { createMetricsRouter, type MetricsEndpoint } from './metrics.router.js';

/**
 * A `qa worker`'s own small HTTP app on METRICS_PORT (it has no API): `/metrics` for Prometheus, `/healthz` and
 * `/readyz` (database, queue, browser) for its orchestrator. Nothing else.
 */
export function createOpsApp({ checks, metrics, telemetry, logger }: { checks: readonly ReadinessCheck[]; metrics?: MetricsEndpoint; telemetry?: Telemetry; logger: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  if (telemetry) app.use(recordRequests(telemetry));
  app.use(createHealthRouter(checks));
  if (metrics) app.use(createMetricsRouter(metrics));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: ErrorCode.RouteNotFound, message: 'No such endpoint' } });
  });
  app.use(errorMapper(logger));
  return app;
}
