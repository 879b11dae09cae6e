import type { Express } from 'express';
import type { Mount } from '../api/app.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { databaseReadiness } from '../api/health.router.js';
import { startHttp } from './http.js';
import { startOpsServer } from './ops-server.js';
import type { ComposeOverrides } from './overrides.js';
import { startProcessors } from './processors.js';
import { composeServices, type Services } from './services.js';

/** A started role of the service. `stop()` finishes or hands back in-flight work and releases every resource. */
export interface RunningService {
  stop(): Promise<void>;
}

/** A started role, with the graph it runs on (tests and benches reach the queue, the feed, the job service). */
export interface RunningRole extends RunningService {
  services: Services;
}

/** A role that answers HTTP. */
export interface RunningHttpRole extends RunningRole {
  /** The port bound (useful with PORT 0). */
  port: number;
  /** The Express app it serves (the OpenAPI test reads its routes). */
  app: Express;
}

export interface HttpRoleOptions extends ComposeOverrides {
  /** Routers mounted in front of the JSON `/api` routers, with no body parser (chat and webhook receivers). */
  mounts?: readonly Mount[];
}

/**
 * `qa serve`: HTTP only. No job processors and no browser; creating a job still writes its queue job, which a
 * `qa worker` (this machine or another, on the same database) picks up.
 */
export async function startServe(config: Config, logger: Logger, options: HttpRoleOptions = {}): Promise<RunningHttpRole> {
  const services = await composeServices(config, logger, options);
  const channel = services.queue.backend.notificationChannel;
  return startParts(services, async (started) => {
    // Nothing here starts Agenda, which is what connects the queue's notification channel. A shared one (Redis)
    // tells workers in other processes of a new job at once: connect it for that; without it, they poll.
    if (config.queue.redisUrl && channel) {
      await channel.connect();
      started.push({ stop: () => channel.disconnect() });
    }
    const http = await startHttp(services, options.mounts);
    started.push(http);
    await startChatSocket(services, started);
    return { port: http.port, app: http.app };
  });
}

/**
 * `qa worker`: runs queued work until stopped. Scale out by running more of these against one MySQL. With
 * METRICS_PORT it answers /metrics, /healthz and /readyz there (`metricsPort`: the port bound).
 */
export async function startWorker(config: Config, logger: Logger, overrides: ComposeOverrides = {}): Promise<RunningRole & { metricsPort?: number }> {
  const services = await composeServices(config, logger, overrides);
  return startParts(services, async (started) => {
    const processors = await startProcessors(services);
    started.push(processors);
    const ops = await startOpsServer(services, [databaseReadiness(services.dataSource), ...processors.readiness]);
    if (!ops) return {};
    started.push(ops);
    return { metricsPort: ops.port };
  });
}

/**
 * `qa start` (behind `npm start`): the HTTP side and the job processors in one process, on the embedded SQLite
 * store unless DATABASE_URL says otherwise. Jobs saved here wake the processors here at once (in-process
 * notifications), and the processors wake this process's event feed after each commit.
 */
export async function startAll(config: Config, logger: Logger, options: HttpRoleOptions = {}): Promise<RunningHttpRole> {
  const services = await composeServices(config, logger, options);
  return startParts(services, async (started) => {
    const processors = await startProcessors(services);
    started.push(processors);
    const http = await startHttp(services, options.mounts, processors.readiness);
    started.push(http);
    await startChatSocket(services, started);
    return { port: http.port, app: http.app };
  });
}

/**
 * Socket Mode (CHAT_APP_TOKEN) is a receiver like the HTTP server: the serving roles open it, and it stops before
 * the processors, so no delivery arrives that nothing will handle.
 */
async function startChatSocket(services: Services, started: RunningService[]): Promise<void> {
  const socket = services.chat?.socket;
  if (!socket) return;
  await socket.start();
  started.push({ stop: () => socket.stop() });
}

/**
 * Starts a role's parts in order and stops them in reverse (HTTP first, so no new work comes in; then the
 * processors, whose running jobs finish or are handed back), then closes the graph. A part that fails to start
 * stops the ones already started.
 */
async function startParts<Extra extends object>(
  services: Services,
  start: (started: RunningService[]) => Promise<Extra>,
): Promise<RunningRole & Extra> {
  const started: RunningService[] = [];
  const stopAll = async () => {
    for (const part of started.splice(0).reverse()) await part.stop();
    await services.close();
  };
  let extra: Extra;
  try {
    extra = await start(started);
  } catch (error) {
    await stopAll();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return { ...extra, services, stop: () => (stopped ??= stopAll()) };
}
