/**
 * The dashboard's screens by path. Each is its own lazily loaded chunk, so a first load carries only the screen it
 * opens (web/build/route-sizes.ts measures each, by these same files), and that chunk is asked for as the page
 * starts (`preloadScreen`). Admin screens are listed for admins only; the API refuses a member's admin calls either
 * way.
 */
import { type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { NotFound } from './components/error-notice.js';
import { LoadedScreen, screenLoader, type ScreenLoader } from './screen-loader.js';
import { isAdmin, useSession } from './session.js';

const screens = {
  jobs: screenLoader(() => import('./screens/jobs-screen.js')),
  job: screenLoader(() => import('./screens/job-screen.js')),
  newJob: screenLoader(() => import('./screens/new-job-screen.js')),
  checks: screenLoader(() => import('./screens/checks-screen.js')),
  check: screenLoader(() => import('./screens/check-screen.js')),
  repositories: screenLoader(() => import('./screens/repositories-screen.js')),
  installations: screenLoader(() => import('./screens/installations-screen.js')),
  keys: screenLoader(() => import('./screens/keys-screen.js')),
  execution: screenLoader(() => import('./screens/execution-screen.js')),
};

/** The screen a path opens, in the order the router tries them. */
const BY_PATH: Array<[RegExp, ScreenLoader]> = [
  [/^\/(jobs\/?)?$/, screens.jobs],
  [/^\/jobs\/new\/?$/, screens.newJob],
  [/^\/jobs\/[^/]+\/?$/, screens.job],
  [/^\/checks\/?$/, screens.checks],
  [/^\/checks\/[^/]+\/?$/, screens.check],
  [/^\/repositories\/?$/, screens.repositories],
  [/^\/installations\/?$/, screens.installations],
  [/^\/keys\/?$/, screens.keys],
  [/^\/execution\/?$/, screens.execution],
];

/** Starts loading the chunk of the screen `pathname` opens (a failure shows when the screen renders). */
export function preloadScreen(pathname: string): void {
  BY_PATH.find(([pattern]) => pattern.test(pathname))?.[1].load().catch(() => undefined);
}

const screen = (name: keyof typeof screens): ReactNode => <LoadedScreen key={name} loader={screens[name]} />;

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

function AdminOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!isAdmin(session)) {
    return (
      <div role="alert" className="notice">
        <h1>Admins only</h1>
        <p>This screen is for administrators of {session.organization.name}.</p>
      </div>
    );
  }
  return children;
}

export function Routes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/jobs" replace />
      </Route>
      <Route path="/jobs">{screen('jobs')}</Route>
      <Route path="/jobs/new">{screen('newJob')}</Route>
      <Route path="/jobs/:id">{screen('job')}</Route>
      <Route path="/checks">{screen('checks')}</Route>
      <Route path="/checks/:id">{screen('check')}</Route>
      <Route path="/repositories">{screen('repositories')}</Route>
      <Route path="/installations">
        <AdminOnly>{screen('installations')}</AdminOnly>
      </Route>
      <Route path="/keys">
        <AdminOnly>{screen('keys')}</AdminOnly>
      </Route>
      <Route path="/execution">
        <AdminOnly>{screen('execution')}</AdminOnly>
      </Route>
      <Route>
        <NotFound what="page" />
      </Route>
    </Switch>
  );
}
