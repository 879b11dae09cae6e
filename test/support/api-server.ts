import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../src/artifacts/artifact-storage.js';
import { createFileArtifactStorage } from '../../src/artifacts/file-storage.js';
import { createApp } from '../../src/api/app.js';
import { startHttpServer } from '../../src/api/server.js';
import { createEventFeed, type EventFeed, type ReadProgress } from '../../src/jobs/event-feed.js';
import { createCheckService } from '../../src/jobs/check-service.js';
import { createJobService } from '../../src/jobs/job-service.js';
import { createScheduleService } from '../../src/jobs/schedule-service.js';
import { readJobProgress } from '../../src/jobs/job-progress.js';
import type { Planner } from '../../src/planner/planner.js';
import { createRulePlanner } from '../../src/planner/rule-planner.js';
import { createNotificationChannel, createQueue, type Queue } from '../../src/queue/index.js';
import { createRepositoryService } from '../../src/repos/repository-service.js';
import { onboardingStarter } from '../../src/workflows/onboarding.js';
import { qaRunStarter } from '../../src/workflows/qa-run.js';
import { createScheduleRepeats } from '../../src/workflows/schedule-fire.js';
import { createWriteBatch } from '../../src/store/write-batch.js';
import { silentLogger } from './logger.js';

export interface TestApi {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The queue the API enqueues workflows on (no worker runs them). */
  queue: Queue;
  /** The shared event pollers behind GET …/:id/events. */
  feed: EventFeed;
  close(): Promise<void>;
}

/**
 * The service's real HTTP app on a random loopback port, wired as `qa start` wires it, over a test store. The
 * server's environment secrets are `secrets`; `excludedOwners` stands for EXCLUDED_OWNERS; `feedRead` wraps the
 * event feed's read (to count or fail reads).
 */
export async function startTestApi(
  dataSource: DataSource,
  options: {
    secrets?: Record<string, string>;
    excludedOwners?: string[];
    feedRead?: (read: ReadProgress) => ReadProgress;
    /** Where the workers of the test keep artifacts (default: a new temporary folder). */
    artifacts?: ArtifactStorage;
    /** The planner of the job service (default: the rule planner). */
    planner?: Planner;
  } = {},
): Promise<TestApi> {
  const queue = createQueue(dataSource, { pollIntervalMs: 60_000, lockLifetimeMs: 60_000, concurrency: 1 }, createNotificationChannel(undefined));
  const artifacts = options.artifacts ?? createFileArtifactStorage(mkdtempSync(join(tmpdir(), 'qa-artifacts-')));
  const writes = createWriteBatch(dataSource);
  const jobs = createJobService({ dataSource, planner: options.planner ?? createRulePlanner(), runs: qaRunStarter(queue), artifacts, writes });
  const repositories = createRepositoryService({
    dataSource,
    config: { excludedOwners: options.excludedOwners ?? [] },
    readSecret: (name) => options.secrets?.[name],
    onboarding: onboardingStarter(queue),
  });
  const read: ReadProgress = (jobId, after) => readJobProgress(dataSource, jobId, after);
  const feed = createEventFeed({ read: options.feedRead ? options.feedRead(read) : read, logger: silentLogger() });
  const server = await startHttpServer({ host: '127.0.0.1', port: 0 }, createApp({
    dataSource,
    jobs,
    feed,
    repositories,
    checks: createCheckService(dataSource),
    schedules: createScheduleService({ dataSource, repeats: createScheduleRepeats(queue.agenda) }),
    logger: silentLogger(),
  }));
  return {
    base: `http://127.0.0.1:${server.port}`,
    queue,
    feed,
    async close() {
      feed.close();
      await server.close();
      await queue.backend.disconnect();
      await writes.close();
    },
  };
}

export interface ApiResponse {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field in tests
  body: Record<string, any>;
}

/**
 * One HTTP call to the API: `body` is sent as JSON (a string is sent as it is, for malformed-JSON tests); `auth`
 * is the API key, or null for none.
 */
export async function callApi(base: string, method: string, path: string, body: unknown, auth: string | null): Promise<ApiResponse> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text ? JSON.parse(text) : undefined) as ApiResponse['body'] };
}
