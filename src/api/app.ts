import express, { type Express, type Router } from 'express';
import type { DataSource } from 'typeorm';
import { SET_A, SET_B } from '../core/naming.js';
import type { CheckService } from '../jobs/check-service.js';
import type { EventFeed } from '../jobs/event-feed.js';
import type { JobUpdatesFeed } from '../jobs/job-updates-feed.js';
import type { JobService } from '../jobs/job-service.js';
import type { ScheduleService } from '../jobs/schedule-service.js';
import type { Logger } from '../logger.js';
import type { RepositoryService } from '../repos/repository-service.js';
import { createExecutionFlagsRouter, createInstallationsRouter, createKeysRouter } from './admin.router.js';
import { authenticate } from './auth.js';
import { createAuthRouter } from './auth.router.js';
import { createJobPagesRouter } from './job-pages.router.js';
import type { PeopleDeps } from './people.js';
import { createSessionRouter } from './session.router.js';
import { createWebApp } from './web-app.router.js';
import { createChecksRouter } from './checks.router.js';
import { errorMapper } from './error-mapper.js';
import { createHealthRouter, databaseReadiness, type ReadinessCheck } from './health.router.js';
import { recordRequests } from './http-metrics.js';
import { createMetricsRouter, type MetricsEndpoint } from './metrics.router.js';
import { createOpenApiRouter } from './openapi.router.js';
import type { Telemetry } from '../core/telemetry.js';
import { createJobsRouter } from './jobs.router.js';
import { createRepositoriesRouter } from './repositories.router.js';
import { createIngestionsRouter } from './ingestions.router.js';
import { createIngestionReads } from '../repos/ingestion-reads.js';
import { createSchedulesRouter } from './schedules.router.js';
import { createTraceViewerRouter } from './trace-viewer.router.js';
import { ErrorCode } from '../core/errors.js';

export interface AppDeps {
  dataSource: DataSource;
  jobs: JobService;
  /** Shared pollers behind GET …/:id/events. */
  feed: EventFeed;
  /** Shared pollers behind GET /api/jobs/updates (and /api/runs/updates). */
  updates: JobUpdatesFeed;
  repositories: RepositoryService;
  checks: CheckService;
  schedules: ScheduleService;
  logger: Logger;
  /** Sign-in and sessions, when IDENTITY_ISSUER_URL is set; without it only API keys reach the API. */
  people?: PeopleDeps;
  /** The dashboard's build (dist/web), served at `/`. */
  webDir: string;
  /** Counts every request by route pattern (default: nothing). */
  telemetry?: Telemetry;
  /** `GET /metrics`, when metrics are on (METRICS_ENABLED). */
  metrics?: MetricsEndpoint;
  /** What `/readyz` checks after the database (the queue). */
  readiness?: readonly ReadinessCheck[];
}

/** A router of its own at `path`, such as a chat receiver or a webhook route. */
export interface Mount {
  path: string;
  router: Router;
}

export interface AppOptions {
  /**
   * Mounted after the health routes and before the `/api` routers, with no body parser in front: a receiver that
   * checks a signature over the raw bytes reads the request stream itself.
   */
  mounts?: readonly Mount[];
}

/**
 * Every router of an organization's data, by mount path: each is reached only through `authenticate` (an API key, or
 * a ready session). One list, so the test that proves no pending session reaches any of them reads the same routes.
 */
export function organizationRoutes({ dataSource, jobs, feed, updates, repositories, checks, schedules }: Pick<AppDeps, 'dataSource' | 'jobs' | 'feed' | 'updates' | 'repositories' | 'checks' | 'schedules'>): Mount[] {
  const ingestions = createIngestionReads(dataSource);
  return [
    ...[SET_A, SET_B].map((names) => ({ path: `/api/${names.collection}`, router: createJobsRouter(names, jobs, feed, updates) })),
    { path: '/api/repositories', router: createRepositoriesRouter(repositories, ingestions) },
    { path: '/api/ingestions', router: createIngestionsRouter(ingestions) },
    { path: '/api/checks', router: createChecksRouter(SET_A, checks) },
    { path: '/api/scenarios', router: createChecksRouter(SET_B, checks) },
    { path: '/api/schedules', router: createSchedulesRouter(schedules) },
    // Admins' (people with the admin role): src/api/admin.router.ts.
    { path: '/api/keys', router: createKeysRouter(dataSource) },
    { path: '/api/execution-flags', router: createExecutionFlagsRouter(dataSource) },
    { path: '/api/installations', router: createInstallationsRouter(dataSource) },
  ];
}

/**
 * The Express app. Bodies are parsed per router, never globally: signature-checked routes (`mounts`) must see the
 * raw bytes.
 */
export function createApp({ dataSource, jobs, feed, updates, repositories, checks, schedules, logger, people, webDir, telemetry, metrics, readiness = [] }: AppDeps, { mounts = [] }: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  if (telemetry) app.use(recordRequests(telemetry));
  app.use(createHealthRouter([databaseReadiness(dataSource), ...readiness]));
  if (metrics) app.use(createMetricsRouter(metrics));
  app.use(createOpenApiRouter());
  for (const { path, router } of mounts) app.use(path, router);
  if (people) {
    app.use('/auth', createAuthRouter(people));
    app.use('/api/session', createSessionRouter(people));
  }
  const web = createWebApp({ dir: webDir });
  app.use('/jobs', createJobPagesRouter({ dataSource, jobs, people, sendPage: web.sendPage }));
  const auth = authenticate(dataSource, people);
  for (const { path, router } of organizationRoutes({ dataSource, jobs, feed, updates, repositories, checks, schedules })) app.use(path, auth, router);
  // Playwright's trace viewer (static files; the trace it opens is an artifact download, authenticated as any).
  app.use('/trace', createTraceViewerRouter());
  app.use(web.router);
  app.use((_req, res) => {
    res.status(404).json({ error: { code: ErrorCode.RouteNotFound, message: 'No such endpoint' } });
  });
  app.use(errorMapper(logger));
  return app;
}
