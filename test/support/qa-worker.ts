import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../src/artifacts/artifact-storage.js';
import type { Config } from '../../src/config.js';
import { startWorker } from '../../src/compose/index.js';
import type { Queue, RetryPolicy } from '../../src/queue/index.js';
import type { CoverageSource } from '../../src/webhooks/codehost/pull-request-selection.js';
import type { Reindexer } from '../../src/webhooks/codehost/push-handler.js';
import { silentLogger } from './logger.js';
import { testConfig } from './service-config.js';

export interface TestWorker {
  queue: Queue;
  artifactsDir: string;
  artifacts: ArtifactStorage;
  stop(): Promise<void>;
}

export interface TestWorkerOptions {
  /** Default: Debian's chromium. A path that is not a browser makes every run fail to start one. */
  executablePath?: string;
  /** A Playwright browser server to connect to instead of launching a browser (BROWSER_WS_ENDPOINT). */
  wsEndpoint?: string;
  /** Jobs the worker runs at once (WORKER_CONCURRENCY); default 2. */
  concurrency?: number;
  lockLifetimeMs?: number;
  /** Share one artifacts folder with an API under test (default: a new temporary folder, removed on stop). */
  artifactsDir?: string;
  retry?: RetryPolicy;
  navigationTimeoutMs?: number;
  stepTimeoutMs?: number;
  timeLimitMs?: number;
  /** The worker's environment secrets (test values, probe URLs and tokens), by variable name. */
  secrets?: Record<string, string>;
  /** A test CA the probe client trusts (PEM). */
  probeCa?: string;
  /** `host:port` origins no run may reach (the composition root passes the service's own address). */
  forbiddenOrigins?: readonly string[];
  /** CODEHOST_* settings (an app id, key and API URL give the worker the pull-request sink). */
  codehost?: Partial<Config['codehost']>;
  /** NOTIFY_* settings: edit interval and the public base URL of links. */
  notify?: Partial<Config['notify']>;
  /** PLANNER_* settings (default: the rule planner); a model planner also resolves steps on the page in a run. */
  planner?: Config['planner'];
  /** The flows and coverage links pull requests choose their checks by (default: none, every check runs). */
  coverage?: CoverageSource;
  /** Starts a re-index when a repository's default branch moves (default: none). */
  reindexer?: Reindexer;
  /** Onboarding's fetches (a test CA for a git server over TLS) and builds (their bounds, how often they are looked at). */
  onboardingFetch?: Partial<Config['onboardingFetch']>;
  catalog?: Partial<Config['catalog']>;
}

/** A worker composed as `qa worker` composes it (real Chromium, file artifact storage), polling every 50 ms. */
export async function startTestWorker(dataSource: DataSource, options: TestWorkerOptions = {}): Promise<TestWorker> {
  const ownsDir = options.artifactsDir === undefined;
  const artifactsDir = options.artifactsDir ?? mkdtempSync(join(tmpdir(), 'qa-worker-artifacts-'));
  const config = testConfig({
    queue: { pollIntervalMs: 50, lockLifetimeMs: options.lockLifetimeMs ?? 30_000 },
    worker: { concurrency: options.concurrency ?? 2, shutdownGraceMs: 5_000 },
    artifacts: { dir: artifactsDir },
    browser: {
      ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
      wsEndpoint: options.wsEndpoint,
      navigationTimeoutMs: options.navigationTimeoutMs ?? 15_000,
      stepTimeoutMs: options.stepTimeoutMs ?? 3_000,
      runTimeLimitMs: options.timeLimitMs ?? 120_000,
    },
    probes: { allowCidrs: ['127.0.0.1/32'] },
    codehost: options.codehost,
    notify: options.notify,
    planner: options.planner,
    onboardingFetch: options.onboardingFetch,
    catalog: { pollMs: 200, ...options.catalog },
  });
  const worker = await startWorker(config, silentLogger(), {
    dataSource,
    readSecret: (name) => options.secrets?.[name],
    retry: options.retry,
    cancelPollMs: 200,
    forbiddenOrigins: options.forbiddenOrigins,
    probes: { ca: options.probeCa },
    coverage: options.coverage,
    reindexer: options.reindexer,
  });
  return {
    queue: worker.services.queue,
    artifactsDir,
    artifacts: worker.services.artifacts,
    async stop() {
      await worker.stop();
      if (ownsDir) rmSync(artifactsDir, { recursive: true, force: true });
    },
  };
}
