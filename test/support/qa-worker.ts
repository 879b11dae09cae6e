import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../src/artifacts/artifact-storage.js';
import { createFileArtifactStorage } from '../../src/artifacts/file-storage.js';
import { createBrowserPool } from '../../src/browser/browser-pool.js';
import { generatePlaywrightSource } from '../../src/checks/generate-source.js';
import { createProbeClient } from '../../src/probes/probe-client.js';
import { createNotificationChannel, createQueue, createWorker, type Queue, type RetryPolicy } from '../../src/queue/index.js';
import { workflowJobs } from '../../src/workflows/registry.js';
import { silentLogger } from './logger.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../src/config.js';

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
}

/** A worker wired as `qa worker` wires it (real Chromium, file artifact storage), polling every 50 ms. */
export async function startTestWorker(dataSource: DataSource, options: TestWorkerOptions = {}): Promise<TestWorker> {
  const ownsDir = options.artifactsDir === undefined;
  const artifactsDir = options.artifactsDir ?? mkdtempSync(join(tmpdir(), 'qa-worker-artifacts-'));
  const lockLifetimeMs = options.lockLifetimeMs ?? 30_000;
  const queue = createQueue(dataSource, { pollIntervalMs: 50, lockLifetimeMs, concurrency: options.concurrency ?? 2 }, createNotificationChannel(undefined));
  const browsers = createBrowserPool(
    {
      executablePath: options.executablePath ?? DEFAULT_BROWSER_EXECUTABLE_PATH,
      navigationTimeoutMs: options.navigationTimeoutMs ?? 15_000,
      wsEndpoint: options.wsEndpoint,
      forbiddenOrigins: options.forbiddenOrigins,
    },
    silentLogger(),
  );
  const artifacts = createFileArtifactStorage(artifactsDir);
  const definitions = workflowJobs({
    dataSource,
    browsers,
    artifacts,
    heartbeatMs: Math.max(200, Math.floor(lockLifetimeMs / 3)),
    retry: options.retry,
    probes: createProbeClient({ allowCidrs: ['127.0.0.1/32'], ca: options.probeCa }),
    readSecret: (name) => options.secrets?.[name],
    stepTimeoutMs: options.stepTimeoutMs ?? 3_000,
    timeLimitMs: options.timeLimitMs ?? 120_000,
    cancelPollMs: 200,
    generateSource: generatePlaywrightSource,
  });
  const worker = createWorker(queue, definitions, silentLogger(), 5_000);
  await worker.start();
  return {
    queue,
    artifactsDir,
    artifacts,
    async stop() {
      await worker.stop();
      await browsers.close();
      if (ownsDir) rmSync(artifactsDir, { recursive: true, force: true });
    },
  };
}
