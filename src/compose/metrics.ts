import type { DataSource } from 'typeorm';
import type { MetricsEndpoint } from '../api/metrics.router.js';
import type { Config } from '../config.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import { createPrometheusTelemetry, type PrometheusTelemetry } from '../metrics/prometheus-telemetry.js';
import { readQueueDepth } from '../queue/index.js';
import { Organization } from '../store/entities/organization.entity.js';

/** A process's metrics: what its parts record into, and `GET /metrics` when METRICS_ENABLED. */
export interface MetricsParts {
  telemetry: Telemetry;
  /** Undefined with METRICS_ENABLED=0: nothing is recorded and no route answers. */
  endpoint: MetricsEndpoint | undefined;
  prometheus: PrometheusTelemetry | undefined;
}

/** One registry per process graph, fed the queue's backlog from the store at scrape time. */
export function composeMetrics(config: Config, dataSource: DataSource): MetricsParts {
  if (!config.metrics.enabled) return { telemetry: NO_TELEMETRY, endpoint: undefined, prometheus: undefined };
  const prometheus = createPrometheusTelemetry({
    readBacklog: () => readQueueDepth(dataSource),
    organizationSlug: config.metrics.organizationLabel
      ? async (id) => (await dataSource.getRepository(Organization).findOne({ select: { id: true, slug: true }, where: { id } }))?.slug
      : undefined,
  });
  return {
    telemetry: prometheus.telemetry,
    prometheus,
    endpoint: { contentType: prometheus.contentType, render: prometheus.render, token: config.metrics.token },
  };
}
