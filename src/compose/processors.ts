import { createAccessibilityMemory } from '../browser/accessibility-memory.js';
import { createBrowserPool } from '../browser/browser-pool.js';
import { serviceOrigin } from '../browser/forbidden-origins.js';
import { generatePlaywrightSource } from '../checks/generate-source.js';
import { createProbeClient } from '../probes/probe-client.js';
import { createWorker, type Worker } from '../queue/index.js';
import type { QaRunDeps } from '../workflows/qa-run.js';
import { createScheduleRepeats } from '../workflows/schedule-fire.js';
import { workerJobs } from '../workflows/registry.js';
import { createOnboardingPorts } from './onboarding.js';
import { browserReadiness, queueReadiness } from './readiness.js';
import type { ReadinessCheck } from '../api/health.router.js';
import type { Services } from './services.js';

/**
 * The job processors on the graph's queue: one browser for the process (launched on first use) and every queue job
 * of src/workflows/registry.ts this process has the parts for; schedules' fires create their replays with the graph's
 * job service as the API does.
 */
/** The started processors, and what `/readyz` checks of them: the queue (they are running) and the browser. */
export interface RunningProcessors extends Worker {
  readiness: ReadinessCheck[];
}

export async function startProcessors(services: Services): Promise<RunningProcessors> {
  const { config, logger, overrides, dataSource, queue, feed } = services;
  // A run never reaches the service itself, whatever its allowlist says (in `qa worker` too: HOST and PORT are the
  // address the serving processes of the same configuration listen on).
  const forbiddenOrigins = [serviceOrigin(config.http), ...(overrides.forbiddenOrigins ?? [])];
  const { telemetry } = services.metrics;
  const browsers = createBrowserPool({ ...config.browser, forbiddenOrigins }, logger.child({ component: 'browser' }), telemetry);
  const repeats = createScheduleRepeats(queue.agenda);
  const runs: QaRunDeps = {
    dataSource,
    browsers,
    artifacts: services.artifacts,
    // Followers of this process's event feed get a job's events as soon as they are committed.
    eventsWritten: (jobId, written) => {
      feed.wake(jobId);
      overrides.eventsWritten?.(jobId, written);
    },
    probes: createProbeClient({ allowCidrs: config.probes.allowCidrs, ...overrides.probes }),
    readSecret: services.readSecret,
    // A model planner also resolves, in a natural-language run, a target the rule grounding cannot (issue 25).
    planner: services.planner,
    // One per process: replays of a check on this worker skip auditing pages unchanged since its last audit.
    accessibilityMemory: createAccessibilityMemory(),
    stepTimeoutMs: config.browser.stepTimeoutMs,
    timeLimitMs: config.browser.runTimeLimitMs,
    cancelPollMs: overrides.cancelPollMs,
    retry: overrides.retry,
    generateSource: (input) => generatePlaywrightSource({ ...input, stepTimeoutMs: config.browser.stepTimeoutMs }),
    telemetry,
  };
  const jobs = workerJobs({
    runs,
    schedules: { createJob: (organizationId, input) => services.jobs.create(organizationId, input), removeRepeat: (scheduleId) => repeats.remove(scheduleId) },
    // Progress deliveries run where their channel's sink is; a worker without any leaves them queued for one that has it.
    deliveries: Object.keys(services.progressSinks).length > 0 ? { sinks: services.progressSinks, settings: config.notify, logger, telemetry } : undefined,
    chat: services.chat && { handleEvent: services.chat.handleEvent, receiptRetentionHours: config.chat.receiptRetentionHours },
    webhooks: { receipts: services.webhooks.receipts, handlers: services.webhooks.handlers, sweepEveryMs: config.webhooks.sweepIntervalMs, telemetry },
    // Onboarding: its steps fetch with git, index, and crawl in this process's browser (tests may give their own).
    onboarding: {
      ports: overrides.onboardingPorts ?? createOnboardingPorts({ config, logger, browsers, codehost: services.webhooks.codehost, planner: services.planner }),
      createJob: (principal, input) => services.jobs.create(principal, input),
      catalog: config.catalog,
      retry: overrides.retry,
    },
  });
  const worker = createWorker(queue, jobs, logger, config.worker.shutdownGraceMs);
  await worker.start();
  return {
    start: () => worker.start(),
    unready: () => worker.unready(),
    readiness: [queueReadiness(dataSource, worker), browserReadiness(browsers)],
    async stop() {
      // Runs first (they hold contexts), then the browser.
      await worker.stop();
      await browsers.close();
    },
  };
}
