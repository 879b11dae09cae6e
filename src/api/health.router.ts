import { Router } from 'express';
import type { DataSource } from 'typeorm';

/**
 * `GET /healthz`: the process is up. `GET /readyz`: the database answers and no migration is pending, so a load
 * balancer sends traffic only to processes that can serve it.
 */
export function createHealthRouter(dataSource: DataSource): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await dataSource.query('SELECT 1');
      if (await dataSource.showMigrations()) {
        res.status(503).json({ status: 'unavailable', reason: 'migrations pending' });
        return;
      }
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
  return router;
}
