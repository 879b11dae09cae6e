import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import type { DataSource } from 'typeorm';
import type { Config } from '../../src/config.js';
import type { Mount } from '../../src/api/app.js';
import type { ArtifactStorage } from '../../src/artifacts/artifact-storage.js';
import { startServe, type ComposeOverrides } from '../../src/compose/index.js';
import type { EventFeed, ReadProgress } from '../../src/jobs/event-feed.js';
import type { JobService } from '../../src/jobs/job-service.js';
import type { JobUpdatesFeed } from '../../src/jobs/job-updates-feed.js';
import type { Planner } from '../../src/planner/planner.js';
import type { Queue } from '../../src/queue/index.js';
import type { ReadAccess } from '../../src/identity/access-state.js';
import { silentLogger } from './logger.js';
import { testConfig } from './service-config.js';

export interface TestApi {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The queue the API enqueues workflows on (no worker runs them). */
  queue: Queue;
  /** The shared event pollers behind GET …/:id/events. */
  feed: EventFeed;
  /** The shared pollers behind GET /api/jobs/updates. */
  updates: JobUpdatesFeed;
  /** The job use cases behind the API, for a test that drives a handler the API composes. */
  jobs: JobService;
  /** The Express app the service serves (to read its routes). */
  app: Express;
  close(): Promise<void>;
}

export interface TestApiOptions {
  secrets?: Record<string, string>;
  excludedOwners?: string[];
  feedRead?: (read: ReadProgress) => ReadProgress;
  /** The updates stream's tick and settle window (default: the service's, 1 s each). */
  updatesTimings?: ComposeOverrides['updatesTimings'];
  /** Where the workers of the test keep artifacts (default: a new temporary folder). */
  artifacts?: ArtifactStorage;
  /** The planner of the job service (default: the rule planner). */
  planner?: Planner;
  /** Routers mounted in front of the JSON `/api` routers (createApp's `mounts`). */
  mounts?: Mount[];
  /** CODEHOST_* settings (a webhook secret mounts the code-host receiver). */
  codehost?: Partial<Config['codehost']>;
  /** IDENTITY_* settings (an issuer turns sign-in on) and the address people reach the service at. */
  identity?: Partial<Config['identity']>;
  /** The port to listen on (default: any free one); sign-in tests need it before start, for PUBLIC_BASE_URL. */
  port?: number;
  /** What the access directory answers (default: the store's directory). */
  readAccess?: ReadAccess;
  /** IDENTITY_WEBHOOK_* settings (a signing secret mounts the identity receiver). */
  identityWebhooks?: Partial<Config['identityWebhooks']>;
  /** CHAT_* settings (a signing secret mounts the chat receiver; a client id, secret and state secret the install routes). */
  chat?: Partial<Config['chat']>;
}

/**
 * The service's real HTTP app on a random loopback port, composed as `qa serve` composes it, over a test store.
 * The server's environment secrets are `secrets`; `excludedOwners` stands for EXCLUDED_OWNERS; `feedRead` wraps
 * the event feed's read (to count or fail reads).
 */
export async function startTestApi(dataSource: DataSource, options: TestApiOptions = {}): Promise<TestApi> {
  const config = testConfig({
    queue: { pollIntervalMs: 60_000, lockLifetimeMs: 60_000 },
    worker: { concurrency: 1 },
    // Given artifact storage replaces the configured folder.
    ...(options.artifacts ? {} : { artifacts: { dir: mkdtempSync(join(tmpdir(), 'qa-artifacts-')) } }),
    repositories: { excludedOwners: options.excludedOwners ?? [] },
    codehost: options.codehost,
    identity: options.identity,
    http: { port: options.port ?? 0 },
    identityWebhooks: options.identityWebhooks,
    chat: options.chat,
  });
  const api = await startServe(config, silentLogger(), {
    dataSource,
    readSecret: (name) => options.secrets?.[name],
    planner: options.planner,
    artifacts: options.artifacts,
    feedRead: options.feedRead,
    updatesTimings: options.updatesTimings,
    mounts: options.mounts,
    readAccess: options.readAccess,
  });
  return {
    base: `http://127.0.0.1:${api.port}`,
    queue: api.services.queue,
    feed: api.services.feed,
    updates: api.services.updates,
    jobs: api.services.jobs,
    app: api.app,
    close: () => api.stop(),
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
