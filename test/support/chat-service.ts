import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { Config } from '../../src/config.js';
import { startAll, startServe, type RunningHttpRole } from '../../src/compose/index.js';
import type { Logger } from '../../src/logger.js';
import { startFakeSlack, type FakeSlack, type FakeSlackOptions } from '../fakes/slack-api.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../fixtures/demo-app/index.js';
import { createApiKey } from '../../src/identity/api-keys.js';
import { createChatWorkspaces } from '../../src/jobs/chat/chat-workspaces.js';
import { insertRepository } from './check-fixtures.js';
import { useTestStore } from './dialects.js';
import { silentLogger } from './logger.js';
import { freePort, spawnQa, until, type QaProcess } from './qa-cli.js';
import { testConfig } from './service-config.js';

/** Where the chat tests' job and artifact links point (PUBLIC_BASE_URL; also the OAuth redirect URI's origin). */
export const CHAT_PUBLIC_BASE_URL = 'https://qa.example.test';

export interface RunningChatService {
  service: RunningHttpRole;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Stops the service (Bolt's socket included: call it before stopping the fake Slack) and removes its artifacts. */
  stop(): Promise<void>;
}

export interface ChatServiceOptions {
  /** `all` (default): as `qa start` runs it; `serve`: HTTP only, as `qa serve` (the work runs in other processes). */
  role?: 'all' | 'serve';
  /** Default: a silent one. Give a recording logger to assert on log lines. */
  logger?: Logger;
}

/**
 * The service as `qa start` runs it (HTTP, processors, a real browser) with the chat settings given, for the
 * end-to-end chat tests: a quick queue, short browser timeouts, edits at most every 300 ms, and the demo shop's
 * sign-in secrets.
 */
export async function startChatService(dataSource: DataSource, chat: Partial<Config['chat']>, options: ChatServiceOptions = {}): Promise<RunningChatService> {
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-chat-e2e-'));
  const config = testConfig({
    queue: { pollIntervalMs: 50, lockLifetimeMs: 30_000 },
    worker: { concurrency: 2, shutdownGraceMs: 5_000 },
    artifacts: { dir: artifactsDir },
    browser: { navigationTimeoutMs: 15_000, stepTimeoutMs: 3_000, runTimeLimitMs: 120_000 },
    notify: { minIntervalMs: 300, publicBaseUrl: CHAT_PUBLIC_BASE_URL },
    chat,
  });
  const secrets: Record<string, string> = { DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password };
  const start = options.role === 'serve' ? startServe : startAll;
  const service = await start(config, options.logger ?? silentLogger(), { dataSource, readSecret: (name) => secrets[name], cancelPollMs: 200 }).catch((error: unknown) => {
    rmSync(artifactsDir, { recursive: true, force: true });
    throw error;
  });
  return {
    service,
    base: `http://127.0.0.1:${service.port}`,
    async stop() {
      await service.stop();
      rmSync(artifactsDir, { recursive: true, force: true });
    },
  };
}

/** What an end-to-end chat test runs against: the demo shop, a fake Slack and the service. */
export interface ChatEndToEnd {
  demo: DemoApp;
  slack: FakeSlack;
  running: RunningChatService;
}

export interface ChatEndToEndOptions {
  slack?: FakeSlackOptions;
  /** Registers tokens, codes and users on the fake before the service starts (Socket Mode connects at start). */
  prepare?: (slack: FakeSlack) => void;
  /** The chat settings; `apiUrl` defaults to the fake's. */
  chat: Partial<Config['chat']>;
  /** How the in-process service runs (default: as `qa start`, silent). */
  service?: ChatServiceOptions;
}

/** Starts the demo shop, the fake Slack and the service, in that order. */
export async function startChatEndToEnd(dataSource: DataSource, options: ChatEndToEndOptions): Promise<ChatEndToEnd> {
  const demo = await startDemoApp();
  const slack = await startFakeSlack(options.slack);
  options.prepare?.(slack);
  const running = await startChatService(dataSource, { apiUrl: slack.url, ...options.chat }, options.service);
  return { demo, slack, running };
}

/**
 * Stops what started, service first: Bolt's Socket Mode client must leave before the fake's server goes, or the
 * client's handshake timer keeps Jest from exiting (see test/fakes/socket-mode-server.ts).
 */
export async function stopChatEndToEnd(parts: Partial<ChatEndToEnd>): Promise<void> {
  await parts.running?.stop();
  await parts.slack?.stop();
  await parts.demo?.close();
}

/**
 * The whole end-to-end set for a describe block, on MySQL: started once before its tests, stopped after them while
 * the store is still open (this afterAll is declared before the store's own). The store is emptied after each test.
 */
export function useChatEndToEnd(options: ChatEndToEndOptions): { store: () => DataSource; parts: () => ChatEndToEnd } {
  let parts: Partial<ChatEndToEnd> = {};
  afterAll(() => stopChatEndToEnd(parts));
  const store = useTestStore('mysql');
  beforeAll(async () => {
    parts = await startChatEndToEnd(store(), options);
  });
  return {
    store,
    parts: () => {
      if (!parts.running) throw new Error('useChatEndToEnd: not started (beforeAll failed?)');
      return parts as ChatEndToEnd;
    },
  };
}

/**
 * The organization `acme` with its shop repository (the demo shop, signing in with the demo account's secrets), and
 * the workspace `connectTeamId` connected to it when given, as `qa chat connect` does.
 */
export async function seedAcmeShop(dataSource: DataSource, demoUrl: string, connectTeamId?: string): Promise<{ organizationId: string }> {
  const { organization } = await createApiKey(dataSource, 'acme');
  await insertRepository(dataSource, organization.id, {
    owner: 'acme',
    name: 'shop',
    baseUrl: demoUrl,
    networkAllowlist: ['localhost'],
    testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD' },
  });
  if (connectTeamId) await createChatWorkspaces({ dataSource, tokenKey: undefined }).connect({ teamId: connectTeamId, organizationSlug: 'acme' });
  return { organizationId: organization.id };
}

/** A real `qa` process of the chat end-to-end set, and the base URL of its HTTP side (serve and start). */
export interface ChatProcess {
  process: QaProcess;
  base: string;
}

/**
 * Spawns the real `qa <verb>` on the test's MySQL database with the same chat settings as the in-process service
 * (the fake Slack, the signing secret, the bot token), its quick queue and edit interval, and the demo shop's
 * sign-in secrets; resolves once it says it is running. Stop it with `child.kill` and await `exited`.
 */
export async function startChatProcess(
  verb: 'serve' | 'worker' | 'start',
  { databaseUrl, artifactsDir, chat, env = {} }: { databaseUrl: string; artifactsDir: string; chat: Partial<Config['chat']>; env?: Record<string, string> },
): Promise<ChatProcess> {
  const port = await freePort();
  const settings: Record<string, string | undefined> = {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    ARTIFACTS_DIR: artifactsDir,
    QUEUE_POLL_INTERVAL_MS: '50',
    SHUTDOWN_GRACE_MS: '2000',
    BROWSER_NAVIGATION_TIMEOUT_MS: '15000',
    BROWSER_STEP_TIMEOUT_MS: '3000',
    NOTIFY_MIN_INTERVAL_MS: '300',
    PUBLIC_BASE_URL: CHAT_PUBLIC_BASE_URL,
    CHAT_SIGNING_SECRET: chat.signingSecret,
    CHAT_BOT_TOKEN: chat.botToken,
    CHAT_API_URL: chat.apiUrl,
    DEMO_EMAIL: DEFAULT_ACCOUNT.email,
    DEMO_PASSWORD: DEFAULT_ACCOUNT.password,
    ...env,
  };
  const defined = Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const started = spawnQa([verb], defined);
  const ready = () => started.run.stdout.includes('running; stop with SIGTERM or SIGINT');
  try {
    await until(() => ready() || started.child.exitCode !== null, `qa ${verb} to run`, 60_000);
  } catch (error) {
    started.child.kill('SIGKILL');
    throw error;
  }
  if (!ready()) throw new Error(`qa ${verb} exited before running: ${(await started.exited).stderr}`);
  return { process: started, base: `http://127.0.0.1:${port}` };
}
