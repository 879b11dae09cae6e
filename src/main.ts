/**
 * The one composition root: builds every part of the service from `Config` and wires them together. Only the CLI
 * (src/cli) imports this file; everything else receives its dependencies from here.
 */
import type { DataSource } from 'typeorm';
import { createApp } from './api/app.js';
import { createFileArtifactStorage } from './artifacts/file-storage.js';
import { createBrowserPool } from './browser/browser-pool.js';
import { generatePlaywrightSource } from './checks/generate-source.js';
import { createProbeClient } from './probes/probe-client.js';
import { startHttpServer } from './api/server.js';
import { processEnvironment, type Config } from './config.js';
import type { Logger } from './logger.js';
import { createEventFeed } from './jobs/event-feed.js';
import { createCheckService } from './jobs/check-service.js';
import { createJobService } from './jobs/job-service.js';
import { createScheduleService } from './jobs/schedule-service.js';
import { readJobProgress } from './jobs/job-progress.js';
import { createPlanner } from './planner/create-planner.js';
import type { Planner } from './planner/planner.js';
import { createRepositoryService } from './repos/repository-service.js';
import { createNotificationChannel, createQueue, createWorker, type Queue, type Worker } from './queue/index.js';
import { userError } from './core/errors.js';
import type { Capability } from './core/execution.js';
import { createApiKey } from './identity/api-keys.js';
import { Organization } from './store/entities/organization.entity.js';
import { setCapabilityPaused } from './store/execution-flags.js';
import { connectInstallation, excludeOwner } from './store/repository-admission.js';
import { openStore } from './store/open-store.js';
import { createWriteBatch } from './store/write-batch.js';
import { enqueueOnboarding } from './workflows/onboarding.js';
import { qaRunStarter } from './workflows/qa-run.js';
import { createScheduleRepeats } from './workflows/schedule-fire.js';
import { workflowJobs } from './workflows/registry.js';

/** A started role of the service. `stop()` finishes or hands back in-flight work and releases every resource. */
export interface RunningService {
  stop(): Promise<void>;
}

/** `qa migrate`: creates the database if needed, brings its schema up to date, and closes it again. */
export async function migrate(config: Config, logger: Logger): Promise<void> {
  const dataSource = await openStore(config, logger);
  await dataSource.destroy();
  logger.info('database schema is up to date');
}

/** `qa keys create`: a new API key for the organization `orgSlug` (created if needed). Returns the full key. */
export async function issueApiKey(config: Config, logger: Logger, orgSlug: string, label?: string): Promise<string> {
  return withStore(config, logger, async (dataSource) => (await createApiKey(dataSource, orgSlug, label)).key);
}

/** `qa flags pause|resume`: switches a capability for every organization, or for the one with slug `orgSlug`. */
export async function setExecutionFlag(config: Config, logger: Logger, capability: Capability, paused: boolean, orgSlug?: string): Promise<void> {
  await withStore(config, logger, async (dataSource) => {
    const organization = orgSlug === undefined ? undefined : await dataSource.getRepository(Organization).findOneBy({ slug: orgSlug });
    if (orgSlug !== undefined && !organization) throw userError('organization.not_found', `No organization with slug "${orgSlug}"`);
    await setCapabilityPaused(dataSource, capability, paused, organization?.id);
    logger.info({ capability, paused, organization: orgSlug ?? 'all' }, 'execution flag set');
  });
}

/** `qa owners exclude`: refuses the owner's repositories from now on. */
export async function excludeRepositoryOwner(config: Config, logger: Logger, owner: string): Promise<void> {
  await withStore(config, logger, (dataSource) => excludeOwner(dataSource, owner));
}

/** `qa installations connect`: accepts the installation's repositories for the organization with slug `orgSlug`. */
export async function connectCodeHostInstallation(config: Config, logger: Logger, provider: string, installationId: string, orgSlug: string): Promise<void> {
  await withStore(config, logger, (dataSource) => connectInstallation(dataSource, provider, installationId, orgSlug));
}

/** Opens the store for one administrator verb and closes it again. */
async function withStore<T>(config: Config, logger: Logger, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = await openStore(config, logger);
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** `qa worker`: runs queued work until stopped. Scale out by running more of these against one MySQL. */
export async function startWorker(config: Config, logger: Logger): Promise<RunningService> {
  const dataSource = await openStore(config, logger);
  try {
    const worker = await startQueueWorker(config, logger, dataSource);
    return {
      async stop() {
        await worker.stop();
        await dataSource.destroy();
      },
    };
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * `qa start` (behind `npm start`): the HTTP side and the worker in one process, on the embedded SQLite store
 * unless DATABASE_URL says otherwise. Jobs saved here wake the worker here at once (in-process notifications).
 */
export async function startAll(config: Config, logger: Logger): Promise<RunningService> {
  const dataSource = await openStore(config, logger);
  const started: RunningService[] = [];
  try {
    const feed = createEventFeed({
      read: (jobId, after) => readJobProgress(dataSource, jobId, after),
      logger: logger.child({ component: 'event-feed' }),
    });
    // The worker in this process tells the feed when it has written events: followers get them at once.
    // One planner for the process: the API's jobs and the worker's scheduled replays share it.
    const planner = createPlanner(config.planner);
    const worker = await startQueueWorker(config, logger, dataSource, (jobId) => feed.wake(jobId), planner);
    started.push(worker);
    const writes = createWriteBatch(dataSource);
    started.push({ stop: () => writes.close() });
    const jobs = createJobService({
      dataSource,
      planner,
      runs: qaRunStarter(worker.queue),
      artifacts: createFileArtifactStorage(config.artifacts.dir),
      writes,
    });
    const environment = processEnvironment();
    const repositories = createRepositoryService({
      dataSource,
      config: config.repositories,
      readSecret: (name) => environment[name],
      startOnboarding: (ingestionRunId) => enqueueOnboarding(worker.queue.agenda, ingestionRunId),
    });
    const http = await startHttpServer(config.http, createApp({
      dataSource,
      jobs,
      feed,
      repositories,
      checks: createCheckService(dataSource),
      schedules: createScheduleService({ dataSource, repeats: createScheduleRepeats(worker.queue.agenda) }),
      logger,
    }));
    logger.info({ host: config.http.host, port: http.port }, 'listening');
    started.push({
      async stop() {
        // Open event streams would hold the server open until their jobs finish: cut them (clients resume with ?after).
        feed.close();
        await http.close();
      },
    });
  } catch (error) {
    for (const service of started.reverse()) await service.stop();
    await dataSource.destroy();
    throw error;
  }
  return {
    async stop() {
      // HTTP first (no new work comes in), then the worker (running jobs finish or are handed back).
      for (const service of [...started].reverse()) await service.stop();
      await dataSource.destroy();
    },
  };
}

/** The worker with what its workflows use: one browser for the process (launched on first use) and artifact storage. */
async function startQueueWorker(
  config: Config,
  logger: Logger,
  dataSource: DataSource,
  eventsWritten: (jobId: string) => void = () => undefined,
  planner: Planner = createPlanner(config.planner),
): Promise<Worker & { queue: Queue }> {
  const queue = createQueue(
    dataSource,
    {
      pollIntervalMs: config.queue.pollIntervalMs,
      lockLifetimeMs: config.queue.lockLifetimeMs,
      concurrency: config.worker.concurrency,
    },
    createNotificationChannel(config.queue.redisUrl),
  );
  const browsers = createBrowserPool(config.browser, logger.child({ component: 'browser' }));
  const environment = processEnvironment();
  const artifacts = createFileArtifactStorage(config.artifacts.dir);
  // Schedules' fires create their replays as the API does, and start them on this worker's queue.
  const writes = createWriteBatch(dataSource);
  const replays = createJobService({ dataSource, planner, runs: qaRunStarter(queue), artifacts, writes });
  const repeats = createScheduleRepeats(queue.agenda);
  const workflows = workflowJobs({
    dataSource,
    browsers,
    artifacts,
    heartbeatMs: Math.max(500, Math.floor(config.queue.lockLifetimeMs / 3)),
    eventsWritten,
    probes: createProbeClient({ allowCidrs: config.probes.allowCidrs }),
    readSecret: (name) => environment[name],
    stepTimeoutMs: config.browser.stepTimeoutMs,
    timeLimitMs: config.browser.runTimeLimitMs,
    generateSource: (input) => generatePlaywrightSource({ ...input, stepTimeoutMs: config.browser.stepTimeoutMs }),
    schedules: { createJob: (organizationId, input) => replays.create(organizationId, input), removeRepeat: (scheduleId) => repeats.remove(scheduleId) },
  });
  const worker = createWorker(queue, workflows, logger, config.worker.shutdownGraceMs);
  await worker.start();
  return {
    queue,
    start: () => worker.start(),
    async stop() {
      // Runs first (they hold contexts), then the browser.
      await worker.stop();
      await browsers.close();
      await writes.close();
    },
  };
}
