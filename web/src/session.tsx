/**
 * Who is signed in. Signed out: the sign-in button. Signed in but not yet in the access directory: the setup screen,
 * which asks again every two seconds and moves on by itself when the directory catches up (no reload). Ready: the
 * dashboard, with the session's organization and role, and its CSRF token set for every write.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { z } from 'zod';
import { sessionSchema } from '../../src/api/schemas/people.js';
import { api, ApiError, setCsrfToken } from './api/client.js';
import { ErrorNotice } from './components/error-notice.js';

type Ready = Extract<z.output<typeof sessionSchema>, { state: 'ready' }>;

const SessionContext = createContext<Ready | null>(null);

export function useSession(): Ready {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside the signed-in dashboard');
  return session;
}

export const isAdmin = (session: Ready) => session.organization.role === 'admin';

export const SESSION_KEY = ['session'] as const;

const MISSING_TEXT: Record<'user' | 'organization' | 'membership', string> = {
  user: 'your user account',
  organization: 'your organization',
  membership: 'an active membership of you in that organization',
};

function SignIn() {
  const returnTo = `${location.pathname}${location.search}`;
  return (
    <main className="centered">
      <h1>QA jobs</h1>
      <p>Sign in to run, follow and inspect your team's QA jobs.</p>
      <a className="button primary" href={`/auth/login?returnTo=${encodeURIComponent(returnTo)}`}>
        Sign in
      </a>
    </main>
  );
}

function Setup({ missing }: { missing: Array<keyof typeof MISSING_TEXT> }) {
  return (
    <main className="centered" aria-live="polite">
      <h1>Almost there</h1>
      <p>You are signed in, but the directory of your identity provider has not told us about everything yet. Missing:</p>
      <ul data-testid="setup-missing">
        {missing.map((item) => (
          <li key={item}>{MISSING_TEXT[item]}</li>
        ))}
      </ul>
      <p className="muted">This page moves on by itself as soon as it arrives. An administrator of your organization can invite you or activate your membership.</p>
    </main>
  );
}

export function SessionGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery({
    queryKey: SESSION_KEY,
    queryFn: async ({ signal }) => {
      try {
        const body = await api(sessionSchema, '/api/session', { signal });
        setCsrfToken(body.csrfToken);
        return body;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data?.state === 'setup_required' ? 2000 : false),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500 && error.status > 0) && count < 3,
  });
  if (session.isPending) return <main className="centered muted">Loading…</main>;
  if (session.isError) {
    const error = session.error;
    if (error instanceof ApiError && error.status === 404) {
      return (
        <main className="centered">
          <h1>Sign-in is not set up</h1>
          <p>This service has no identity provider configured (IDENTITY_ISSUER_URL); API keys still reach the API.</p>
        </main>
      );
    }
    return (
      <main className="centered">
        <ErrorNotice error={error} retry={() => void queryClient.invalidateQueries({ queryKey: SESSION_KEY })} />
      </main>
    );
  }
  const data = session.data;
  if (data === null) return <SignIn />;
  if (data.state === 'setup_required') return <Setup missing={data.missing} />;
  return <SessionContext.Provider value={data}>{children}</SessionContext.Provider>;
}
