/**
 * The dashboard's screens by path. Each is its own lazily loaded chunk, so a first load carries only the screen it
 * opens (web/build/route-sizes.ts measures each, by these same files). Admin screens are listed for admins only;
 * the API refuses a member's admin calls either way.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { NotFound } from './components/error-notice.js';
import { isAdmin, useSession } from './session.js';

const JobsScreen = lazy(() => import('./screens/jobs-screen.js'));
const JobScreen = lazy(() => import('./screens/job-screen.js'));
const NewJobScreen = lazy(() => import('./screens/new-job-screen.js'));
const ChecksScreen = lazy(() => import('./screens/checks-screen.js'));
const CheckScreen = lazy(() => import('./screens/check-screen.js'));
const RepositoriesScreen = lazy(() => import('./screens/repositories-screen.js'));
const InstallationsScreen = lazy(() => import('./screens/installations-screen.js'));
const KeysScreen = lazy(() => import('./screens/keys-screen.js'));
const ExecutionScreen = lazy(() => import('./screens/execution-screen.js'));

export interface NavItem {
  href: string;
  label: string;
  admin: boolean;
}

export const NAV: NavItem[] = [
  { href: '/jobs', label: 'Jobs', admin: false },
  { href: '/jobs/new', label: 'New job', admin: false },
  { href: '/checks', label: 'Checks', admin: false },
  { href: '/repositories', label: 'Repositories', admin: false },
  { href: '/installations', label: 'Installations', admin: true },
  { href: '/keys', label: 'API keys', admin: true },
  { href: '/execution', label: 'Execution', admin: true },
];

function AdminOnly({ component: Component }: { component: ComponentType }) {
  const session = useSession();
  if (!isAdmin(session)) {
    return (
      <div role="alert" className="notice">
        <h1>Admins only</h1>
        <p>This screen is for administrators of {session.organization.name}.</p>
      </div>
    );
  }
  return <Component />;
}

export function Routes() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <Switch>
        <Route path="/">
          <Redirect to="/jobs" replace />
        </Route>
        <Route path="/jobs" component={JobsScreen} />
        <Route path="/jobs/new" component={NewJobScreen} />
        <Route path="/jobs/:id" component={JobScreen} />
        <Route path="/checks" component={ChecksScreen} />
        <Route path="/checks/:id" component={CheckScreen} />
        <Route path="/repositories" component={RepositoriesScreen} />
        <Route path="/installations">
          <AdminOnly component={InstallationsScreen} />
        </Route>
        <Route path="/keys">
          <AdminOnly component={KeysScreen} />
        </Route>
        <Route path="/execution">
          <AdminOnly component={ExecutionScreen} />
        </Route>
        <Route>
          <NotFound what="page" />
        </Route>
      </Switch>
    </Suspense>
  );
}
