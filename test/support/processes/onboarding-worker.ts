/**
 * An onboarding worker process for kill tests: the real store, queue and job service, the test's step
 * implementations (test/support/onboarding-steps.ts). Configured by environment:
 *   CHILD_DATABASE_URL  MySQL URL of the test database (migrated by the parent)
 *   CHILD_HANG_STEP     fetch | index | crawl | discover | build: that step's first call never returns (the parent
 *                       kills the process there; `build` hangs in the child job's create)
 *   CHILD_LOCK_MS       the queue's lock lifetime
 * It writes one JSON object per line to stdout: {"event":"ready"}, {"event":"called","step"} as each step's
 * implementation is entered, and {"event":"hung","step"}.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { composeServices } from '../../../src/compose/index.js';
import { InProcessNotificationChannel, createQueue, createWorker } from '../../../src/queue/index.js';
import { openStore } from '../../../src/store/open-store.js';
import { onboardingWorkflow } from '../../../src/workflows/onboarding.js';
import { silentLogger } from '../logger.js';
import { KILL_TEST_FLOWS, testSteps } from '../onboarding-steps.js';
import { testConfig } from '../service-config.js';

const env = z
  .object({
    CHILD_DATABASE_URL: z.string(),
    CHILD_HANG_STEP: z.enum(['fetch', 'index', 'crawl', 'discover', 'build']),
    CHILD_LOCK_MS: z.coerce.number().int().positive(),
  })
  .parse(process.env);

const say = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);
const logger = silentLogger();
const dataSource = await openStore({ database: { kind: 'mysql', url: env.CHILD_DATABASE_URL } }, logger);
const services = await composeServices(testConfig({ queue: { pollIntervalMs: 50 } }), logger, { dataSource });
const steps = testSteps(KILL_TEST_FLOWS(), () => [], (step) => say({ event: 'called', step }));
const hang = env.CHILD_HANG_STEP;
if (hang !== 'build') void steps.hang(hang).started.then(() => say({ event: 'hung', step: hang }));

const queue = createQueue(dataSource, { pollIntervalMs: 50, lockLifetimeMs: env.CHILD_LOCK_MS, concurrency: 2 }, new InProcessNotificationChannel());
const job = onboardingWorkflow({
  dataSource,
  ports: steps.ports,
  async createJob(principal, input) {
    say({ event: 'called', step: 'createJob' });
    if (hang === 'build') {
      say({ event: 'hung', step: 'build' });
      await new Promise(() => undefined);
    }
    return services.jobs.create(principal, input);
  },
  catalog: { maxBuilds: 1, maxConcurrency: 2, pollMs: 100 },
});
await createWorker(queue, [job], logger, 1_000).start();
say({ event: 'ready', pid: process.pid });
