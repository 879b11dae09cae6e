import type { DataSource } from 'typeorm';
import { signInCookies } from '../api/cookies.js';
import type { PeopleDeps } from '../api/people.js';
import type { Config } from '../config.js';
import { readAccess as readDirectoryAccess } from '../identity/access-directory.js';
import type { ReadAccess } from '../identity/access-state.js';
import { createOidcClient } from '../identity/oidc-client.js';
import { createSessionReader } from '../identity/session-reader.js';
import { createSessionStore } from '../identity/sessions.js';
import { createSignInAttempts } from '../identity/sign-in-attempts.js';

/** Sign-in and sessions, when IDENTITY_ISSUER_URL (with its client) is set; undefined otherwise. */
export function composePeople(config: Config, dataSource: DataSource, readAccess: ReadAccess | undefined): PeopleDeps | undefined {
  const { issuerUrl, clientId, clientSecret, publicBaseUrl, sessionIdleMinutes, sessionAbsoluteHours } = config.identity;
  if (issuerUrl === undefined || clientId === undefined || clientSecret === undefined) return undefined;
  const absoluteMs = sessionAbsoluteHours * 3_600_000;
  const sessions = createSessionStore(dataSource, { idleMs: sessionIdleMinutes * 60_000, absoluteMs });
  return {
    oidc: createOidcClient({ issuerUrl, clientId, clientSecret, redirectUri: `${publicBaseUrl}/auth/callback` }),
    attempts: createSignInAttempts(dataSource),
    sessions,
    readSession: createSessionReader(sessions, readAccess ?? ((userId) => readDirectoryAccess(dataSource, userId))),
    cookies: signInCookies(publicBaseUrl),
    publicBaseUrl,
    sessionMaxAgeMs: absoluteMs,
    now: () => new Date(),
  };
}
