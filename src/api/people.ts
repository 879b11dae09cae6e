import type { OidcClient } from '../identity/oidc-client.js';
import type { SessionReader } from '../identity/session-reader.js';
import type { SessionStore } from '../identity/sessions.js';
import type { SignInAttempts } from '../identity/sign-in-attempts.js';
import type { SignInCookies } from './cookies.js';

/** What the HTTP edge needs to let people in: present only when sign-in is configured (IDENTITY_ISSUER_URL). */
export interface PeopleDeps {
  oidc: OidcClient;
  attempts: SignInAttempts;
  sessions: SessionStore;
  readSession: SessionReader;
  cookies: SignInCookies;
  /** PUBLIC_BASE_URL without a trailing slash. */
  publicBaseUrl: string;
  /** How long the session cookie is kept (the session's absolute lifetime). */
  sessionMaxAgeMs: number;
  now: () => Date;
}

/** The origin (scheme, host, port) browsers send in `Origin` for pages of this service. */
export function publicOrigin(people: PeopleDeps): string {
  return new URL(people.publicBaseUrl).origin;
}
