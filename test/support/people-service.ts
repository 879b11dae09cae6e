import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../src/artifacts/artifact-storage.js';
import { startFakeIdentityProvider, type FakeIdentityProvider } from '../fakes/identity-provider.js';
import { startTestApi, type TestApi } from './api-server.js';
import { startTestWorker, type TestWorker } from './qa-worker.js';
import { useTestStore } from './dialects.js';
import type { Dialect } from './databases.js';
import { freePort, TestBrowser, type Hop } from './signed-in-browser.js';

export interface PeopleService {
  api: TestApi;
  idp: FakeIdentityProvider;
  /** PUBLIC_BASE_URL (the service on loopback, http). */
  base: string;
  /** Applies identity deliveries, when the service has a webhook secret. */
  worker: TestWorker | undefined;
}

/** The API with sign-in on, against a fake provider, for the tests of a describe block. */
export interface PeopleServiceOptions {
  publicBaseUrl?: (port: number) => string;
  idleMinutes?: number;
  /** IDENTITY_WEBHOOK_SIGNING_SECRET: mounts the identity receiver, and a worker applies its deliveries. */
  webhookSecret?: string;
  /** Where the API reads artifact bytes (default: a new temporary folder). */
  artifacts?: ArtifactStorage;
}

async function startPeopleService(store: DataSource, options: PeopleServiceOptions): Promise<PeopleService> {
  const { api, idp, base } = await startSignInApi(store, options);
  const worker = options.webhookSecret === undefined ? undefined : await startTestWorker(store, { concurrency: 4 });
  return { api, idp, base, worker };
}

/**
 * The API with sign-in on and its fake provider. The API must know its own address before it listens (the provider
 * redirects back to it), so the port is chosen free first; something else on the machine can take it in between (it
 * happened once in a CI run), and then both start again on another one.
 */
async function startSignInApi(store: DataSource, options: PeopleServiceOptions): Promise<Omit<PeopleService, 'worker'>> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const publicBaseUrl = options.publicBaseUrl?.(port) ?? base;
    const idp = await startFakeIdentityProvider({ redirectUri: `${publicBaseUrl}/auth/callback` });
    try {
      const api = await startTestApi(store, {
        port,
        artifacts: options.artifacts,
        identity: { issuerUrl: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, publicBaseUrl, sessionIdleMinutes: options.idleMinutes ?? 120 },
        ...(options.webhookSecret === undefined ? {} : { identityWebhooks: { signingSecret: options.webhookSecret } }),
      });
      return { api, idp, base };
    } catch (error) {
      await idp.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

async function stopPeopleService(running: PeopleService | undefined): Promise<void> {
  await running?.api.close();
  await running?.worker?.stop();
  await running?.idp.close();
}

/** The API with sign-in on, against a fake provider, for the tests of a describe block (no worker). */
export function usePeopleService(store: () => DataSource, options: Omit<PeopleServiceOptions, 'webhookSecret'> = {}): () => PeopleService {
  let running: PeopleService | undefined;
  beforeAll(async () => {
    running = await startPeopleService(store(), options);
  });
  afterAll(() => stopPeopleService(running));
  return () => {
    if (!running) throw new Error('usePeopleService: started in beforeAll');
    return running;
  };
}

/**
 * A test store with the API (sign-in on, the identity receiver mounted) and a worker that applies identity
 * deliveries. The services stop before the store closes (Jest runs a block's afterAll hooks in declaration order).
 */
export function usePeopleServiceWithDirectory(dialect: Dialect, webhookSecret: string): { store: () => DataSource; service: () => PeopleService } {
  let running: PeopleService | undefined;
  afterAll(() => stopPeopleService(running));
  const store = useTestStore(dialect);
  beforeAll(async () => {
    running = await startPeopleService(store(), { webhookSecret });
  });
  return {
    store,
    service: () => {
      if (!running) throw new Error('usePeopleServiceWithDirectory: started in beforeAll');
      return running;
    },
  };
}

/**
 * A whole sign-in in `browser` as `sub` (the provider's scripted person), from `/auth/login`; answers every hop. The
 * CSRF token of the new session is read from `GET /api/session`, as a page would.
 */
export async function signIn(service: PeopleService, browser: TestBrowser, sub: string, returnTo?: string): Promise<Hop[]> {
  service.idp.signInAs({ sub, email: `${sub}@example.com`, emailVerified: true, name: sub });
  const hops = await browser.navigate(`${service.base}/auth/login${returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`}`);
  const session = await browser.call(service.base, 'GET', '/api/session');
  browser.csrfToken = session.body?.csrfToken as string | undefined;
  return hops;
}
