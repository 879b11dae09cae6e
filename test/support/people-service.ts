import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { startFakeIdentityProvider, type FakeIdentityProvider } from '../fakes/identity-provider.js';
import { startTestApi, type TestApi } from './api-server.js';
import { freePort, TestBrowser, type Hop } from './signed-in-browser.js';

export interface PeopleService {
  api: TestApi;
  idp: FakeIdentityProvider;
  /** PUBLIC_BASE_URL (the service on loopback, http). */
  base: string;
}

/** The API with sign-in on, against a fake provider, for the tests of a describe block. */
export function usePeopleService(store: () => DataSource, options: { publicBaseUrl?: (port: number) => string; idleMinutes?: number } = {}): () => PeopleService {
  let running: PeopleService | undefined;
  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const publicBaseUrl = options.publicBaseUrl?.(port) ?? base;
    const idp = await startFakeIdentityProvider({ redirectUri: `${publicBaseUrl}/auth/callback` });
    const api = await startTestApi(store(), {
      port,
      identity: { issuerUrl: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, publicBaseUrl, sessionIdleMinutes: options.idleMinutes ?? 120 },
    });
    running = { api, idp, base };
  });
  afterAll(async () => {
    await running?.api.close();
    await running?.idp.close();
  });
  return () => {
    if (!running) throw new Error('usePeopleService: started in beforeAll');
    return running;
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
