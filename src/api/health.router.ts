import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { responseOf } from './respond.js';
import { healthSchema, readinessSchema } from './schemas/health.js';

/**
 * `GET /healthz`: the process is up. `GET /readyz`: the database answers and no migration is pending, so a load
 * balancer sends traffic only to processes that can serve it.
 */
export function createHealthRouter(dataSource: DataSource): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json(responseOf(healthSchema, { status: 'ok' }));
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await dataSource.query('SELECT 1');
      if (await dataSource.showMigrations()) {
        res.status(503).json(responseOf(readinessSchema, { status: 'unavailable', reason: 'migrations pending' }));
        return;
      }
      res.json(responseOf(readinessSchema, { status: 'ready' }));
    } catch {
      res.status(503).json(responseOf(readinessSchema, { status: 'unavailable', reason: 'database unreachable' }));
    }
  });
  return router;
}
