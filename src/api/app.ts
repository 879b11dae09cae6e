import express, { type Express } from 'express';
import type { DataSource } from 'typeorm';
import { SET_A, SET_B } from '../core/naming.js';
import type { CheckService } from '../jobs/check-service.js';
import type { EventFeed } from '../jobs/event-feed.js';
import type { JobService } from '../jobs/job-service.js';
import type { ScheduleService } from '../jobs/schedule-service.js';
import type { Logger } from '../logger.js';
import type { RepositoryService } from '../repos/repository-service.js';
import { requireApiKey } from './auth.js';
import { createChecksRouter } from './checks.router.js';
import { errorMapper } from './error-mapper.js';
import { createHealthRouter } from './health.router.js';
import { createJobsRouter } from './jobs.router.js';
import { createRepositoriesRouter } from './repositories.router.js';
import { createSchedulesRouter } from './schedules.router.js';

export interface AppDeps {
  dataSource: DataSource;
  jobs: JobService;
  /** Shared pollers behind GET …/:id/events. */
  feed: EventFeed;
  repositories: RepositoryService;
  checks: CheckService;
  schedules: ScheduleService;
  logger: Logger;
}

/**
 * The Express app. Bodies are parsed per router, never globally: signature-checked webhook routes (later issues)
 * must see the raw bytes.
 */
export function createApp({ dataSource, jobs, feed, repositories, checks, schedules, logger }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(createHealthRouter(dataSource));
  const auth = requireApiKey(dataSource);
  for (const names of [SET_A, SET_B]) app.use(`/api/${names.collection}`, auth, createJobsRouter(names, jobs, feed));
  app.use('/api/repositories', auth, createRepositoriesRouter(repositories));
  app.use('/api/checks', auth, createChecksRouter(SET_A, checks));
  app.use('/api/scenarios', auth, createChecksRouter(SET_B, checks));
  app.use('/api/schedules', auth, createSchedulesRouter(schedules));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'route.not_found', message: 'No such endpoint' } });
  });
  app.use(errorMapper(logger));
  return app;
}
