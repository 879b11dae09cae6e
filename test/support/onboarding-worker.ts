/** Onboarding workers for a test: the real queue and job service, the test's step implementations. */
import type { DataSource } from 'typeorm';
import { composeServices, type Services } from '../../src/compose/index.js';
import { InProcessNotificationChannel, createQueue, createWorker, type Worker } from '../../src/queue/index.js';
import { createIngestionStarter } from '../../src/repos/start-ingestion.js';
import { IngestionEvent } from '../../src/store/entities/ingestion-event.entity.js';
import { onboardingStarter, onboardingWorkflow, type CatalogSettings, type OnboardingPorts } from '../../src/workflows/onboarding.js';
import { silentLogger } from './logger.js';
import { testConfig } from './service-config.js';

export interface OnboardingWorkerOptions {
  ports: OnboardingPorts;
  catalog?: Partial<CatalogSettings>;
  /** Short in takeover tests: a killed worker's lock expires this soon. */
  lockLifetimeMs?: number;
}

export interface OnboardingHarness {
  services: Services;
  start(organizationId: string, repositoryId: string, revision?: string | null): Promise<string>;
  worker(options: OnboardingWorkerOptions): Promise<Worker>;
  events(ingestionRunId: string): Promise<{ type: string; data: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

export async function onboardingHarness(dataSource: DataSource): Promise<OnboardingHarness> {
  const services = await composeServices(testConfig({ queue: { pollIntervalMs: 50 } }), silentLogger(), { dataSource });
  const startIngestion = createIngestionStarter({ dataSource, onboarding: onboardingStarter(services.queue) });
  const workers: Worker[] = [];
  return {
    services,
    async start(organizationId, repositoryId, revision = null) {
      return (await startIngestion(organizationId, repositoryId, revision)).ingestionRunId;
    },
    async worker({ ports, catalog, lockLifetimeMs = 30_000 }) {
      const queue = createQueue(dataSource, { pollIntervalMs: 50, lockLifetimeMs, concurrency: 2 }, new InProcessNotificationChannel());
      const job = onboardingWorkflow({
        dataSource, ports, createJob: (principal, input) => services.jobs.create(principal, input),
        catalog: { maxBuilds: 10, maxConcurrency: 2, pollMs: 100, ...catalog },
        retry: { baseDelayMs: 50, factor: 1, maxDelayMs: 50, maxRetries: 1, jitter: 0 },
      });
      const worker = createWorker(queue, [job], silentLogger(), 1_000);
      await worker.start();
      workers.push(worker);
      return worker;
    },
    async events(ingestionRunId) {
      const rows = await dataSource.getRepository(IngestionEvent).find({ where: { ingestionRunId }, order: { seq: 'ASC' } });
      return rows.map((row) => ({ type: row.type, data: row.data as Record<string, unknown> }));
    },
    async close() {
      for (const worker of workers) await worker.stop();
      await services.close();
    },
  };
}
