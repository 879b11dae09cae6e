import type { ReadinessCheck } from '../api/health.router.js';
import { createOpsApp } from '../api/ops-app.js';
import { startHttpServer } from '../api/server.js';
import type { RunningHttp } from './http.js';
import type { Services } from './services.js';

/**
 * A `qa worker`'s /metrics, /healthz and /readyz on METRICS_PORT (HOST), when metrics are on and the port is set;
 * undefined otherwise. It stops first, before the processors.
 */
export async function startOpsServer(services: Services, checks: readonly ReadinessCheck[]): Promise<RunningHttp | undefined> {
  const { config, logger, metrics } = services;
  if (!metrics.endpoint || config.metrics.port === undefined) return undefined;
  const app = createOpsApp({ checks, metrics: metrics.endpoint, telemetry: metrics.telemetry, logger });
  const http = await startHttpServer({ host: config.http.host, port: config.metrics.port }, app);
  logger.info({ host: config.http.host, port: http.port }, 'metrics listening');
  return { port: http.port, app, stop: () => http.close() };
}
