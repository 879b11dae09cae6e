import type { Express } from 'express';
import { createApp, type Mount } from '../api/app.js';
import { authenticate } from '../api/auth.js';
import { startHttpServer } from '../api/server.js';
import { createMcpRouter } from '../mcp/http.router.js';
import { QA_MCP_SERVER } from '../mcp/server-info.js';
import type { ReadinessCheck } from '../api/health.router.js';
import { composePeople } from './people.js';
import { queueReadiness } from './readiness.js';
import { dashboardBuildDir } from './web-dir.js';
import type { Services } from './services.js';

export interface RunningHttp {
  /** The port bound (useful with PORT 0). */
  port: number;
  /** The Express app it serves (the OpenAPI test reads its routes). */
  app: Express;
  stop(): Promise<void>;
}

/**
 * The HTTP side on the graph's services: the API, and raw-body receivers in front of its JSON routers (the chat
 * receiver and install routes when chat is configured, the code-host receiver when its secret is, then `mounts`),
 * `/metrics` when metrics are on, and `/readyz` over the database and `readiness` (default: the queue's table).
 */
export async function startHttp(services: Services, mounts: readonly Mount[] = [], readiness: readonly ReadinessCheck[] = [queueReadiness(services.dataSource)]): Promise<RunningHttp> {
  const { config, logger, feed, updates } = services;
  const people = composePeople(config, services.dataSource, services.overrides.readAccess);
  // The MCP tools for coding agents (docs/mcp.md), behind the API's own authentication.
  const mcp: Mount = {
    path: '/mcp',
    router: createMcpRouter({
      authenticate: authenticate(services.dataSource, people),
      jobs: services.jobs,
      checks: services.checks,
      feed,
      publicBase: config.notify.publicBaseUrl,
      info: QA_MCP_SERVER,
    }),
  };
  const app = createApp(
    {
      dataSource: services.dataSource,
      jobs: services.jobs,
      feed,
      updates,
      repositories: services.repositories,
      checks: services.checks,
      schedules: services.schedules,
      logger,
      people,
      webDir: dashboardBuildDir(),
      telemetry: services.metrics.endpoint && services.metrics.telemetry,
      metrics: services.metrics.endpoint,
      readiness,
    },
    { mounts: [...(services.chat?.mounts ?? []), ...services.webhooks.mounts, mcp, ...mounts] },
  );
  const http = await startHttpServer(config.http, app);
  logger.info({ host: config.http.host, port: http.port }, 'listening');
  return {
    port: http.port,
    app,
    async stop() {
      // Open streams would hold the server open (event streams until their jobs finish, update streams for good): cut
      // them (clients resume with ?after).
      feed.close();
      updates.close();
      await http.close();
    },
  };
}
