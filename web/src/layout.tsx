/** The frame of every signed-in screen: the organization, the navigation, the connection banner and sign-out. */
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { sessionSchema } from '../../src/api/schemas/people.js';
import { api, requestHeaders } from './api/client.js';
import { connection } from './connection.js';
import { NAV } from './routes.js';
import { isAdmin, SESSION_KEY, useSession } from './session.js';

function ConnectionBanner() {
  const online = useSyncExternalStore(connection.subscribe, connection.isOnline);
  if (online) return null;
  return (
    <div role="status" className="banner warning" data-testid="connection-lost">
      The connection to the service was lost. Reconnecting…
    </div>
  );
}

function OrganizationPicker() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (session.organizations.length < 2) return <span className="organization">{session.organization.name}</span>;
  return (
    <label className="organization">
      <span className="visually-hidden">Organization</span>
      <select
        value={session.organization.id}
        disabled={busy}
        onChange={(event) => {
          setBusy(true);
          void api(sessionSchema, '/api/session/organization', { method: 'POST', body: { organizationId: event.target.value } })
            .then(async (next) => {
              queryClient.setQueryData(SESSION_KEY, next);
              await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
            })
            .finally(() => setBusy(false));
        }}
      >
        {session.organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location] = useLocation();
  const queryClient = useQueryClient();
  const items = NAV.filter((item) => !item.admin || isAdmin(session));
  const current = (href: string) => location === href || (href !== '/jobs' && location.startsWith(`${href}/`)) || (href === '/jobs' && /^\/jobs\/(?!new)/.test(location));
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/jobs" className="brand">
          QA jobs
        </Link>
        <nav aria-label="Main">
          <ul>
            {items.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <OrganizationPicker />
          <span className="muted" data-testid="signed-in-as">
            {session.user.name ?? session.user.email ?? session.user.id}
            {isAdmin(session) ? ' · admin' : ''}
          </span>
          <button
            type="button"
            onClick={() =>
              void fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: requestHeaders('POST', false) }).finally(() => {
                queryClient.clear();
                window.location.assign('/');
              })
            }
          >
            Sign out
          </button>
        </div>
      </header>
      <ConnectionBanner />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
