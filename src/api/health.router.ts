import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { responseOf } from './respond.js';
import { DEPENDENCIES, healthSchema, readinessSchema } from './schemas/health.js';

/** What a process needs to serve besides its database: the queue; a worker's browser. */
export type Dependency = (typeof DEPENDENCIES)[number];

/** One dependency's readiness: resolves with why it is not ready, or undefined when it is. */
export interface ReadinessCheck {
  dependency: Dependency;
  unready(): Promise<string | undefined>;
}

/** The store: it answers, and no migration is pending. */
export function databaseReadiness(dataSource: DataSource): ReadinessCheck {
  return {
    dependency: 'database',
    async unready() {
      try {
        await dataSource.query('SELECT 1');
        return (await dataSource.showMigrations()) ? 'migrations pending' : undefined;
      } catch {
        return 'database unreachable';
      }
    },
  };
}

/**
 * `GET /healthz`: the process is up. `GET /readyz`: every dependency of this process is ready (the database
 * answers and no migration is pending; the queue; a worker's browser), so a load balancer or an orchestrator sends
 * work only to processes that can do it. Ready: 200 `{ status: 'ready' }`. Not: 503 naming the first dependency that
 * is not ready (`dependency`, `reason`) and what each check said (`checks`). The checks run one after the other,
 * the database first: the queue lives in it.
 */
export function createHealthRouter(checks: readonly ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json(responseOf(healthSchema, { status: 'ok' }));
  });
  router.get('/readyz', async (_req, res) => {
    const found: Partial<Record<Dependency, string>> = {};
    let first: { dependency: Dependency; reason: string } | undefined;
    for (const check of checks) {
      const reason = await check.unready().catch((error: unknown) => (error instanceof Error ? error.message : 'not ready'));
      found[check.dependency] = reason ?? 'ready';
      if (reason !== undefined) first ??= { dependency: check.dependency, reason };
    }
    if (first) {
      res.status(503).json(responseOf(readinessSchema, { status: 'unavailable', dependency: first.dependency, reason: first.reason, checks: found }));
      return;
    }
    res.json(responseOf(readinessSchema, { status: 'ready' }));
  });
  return router;
}
