/**
 * The app's pages as discovery sees them, the crawl and the index joined: each crawled page with the route (and so
 * the source files) behind it, and each static route the crawl never reached. A crawled page that shows the same
 * sign-in form as the sign-in page, at another path, is a page behind sign-in: what it holds comes from its source.
 */
import type { CrawledPage, FlowOrigin, IndexedRoute, RepositoryIndex } from '../model.js';
import { formKind, type FormFacts } from './form-kinds.js';
import { matchRoute, pathOnly } from './route-match.js';
import { cleanLabel } from './words.js';

export interface Surface {
  /** The path a run opens: the crawled path (with its query), or a static route's path. */
  path: string;
  title: string;
  forms: FormFacts[];
  controls: { role: string; name: string }[];
  testIds: string[];
  files: string[];
  origin: FlowOrigin;
  route: IndexedRoute | undefined;
  /** How many other pages link here. */
  inbound: number;
  behindSignIn: boolean;
}

export interface SignInPlace {
  surface: Surface;
  form: FormFacts;
}

const signature = (page: { title: string }, form: FormFacts) => JSON.stringify([page.title, form.submitLabel, form.fields.map((field) => [field.label, field.name, field.type])]);

/** Where a sign-in form's page is most likely the sign-in page itself: named so, then the shortest path. */
function signInRank(surface: Surface): [number, number, number] {
  const named = /(?:log-?in|sign-?in|signin|auth)(?:[/.?]|$)/i.test(pathOnly(surface.path)) ? 0 : 1;
  return [named, pathOnly(surface.path).split('/').length + (surface.path.includes('?') ? 1 : 0), -surface.inbound];
}

export function compareRank(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function fromRoute(route: IndexedRoute): Pick<Surface, 'forms' | 'testIds' | 'files'> {
  return {
    forms: route.forms.map((form) => ({ fields: form.fields, submitLabel: form.submitLabel, method: form.method, action: form.action })),
    testIds: route.testIds,
    files: route.files,
  };
}

export function buildSurfaces(index: RepositoryIndex | null, pages: readonly CrawledPage[]): { surfaces: Surface[]; signIn: SignInPlace | undefined } {
  const routes = index?.routes ?? [];
  const surfaces: Surface[] = [];
  const reached = new Set<IndexedRoute>();
  for (const page of pages) {
    const route = matchRoute(page.path, routes);
    if (route !== undefined) reached.add(route);
    surfaces.push({
      path: page.path,
      title: cleanLabel(page.title, 80),
      forms: page.forms.length > 0 ? page.forms : (route === undefined ? [] : fromRoute(route).forms),
      controls: page.controls,
      testIds: [...new Set([...page.testIds, ...(route?.testIds ?? [])])],
      files: route?.files ?? [],
      origin: route === undefined ? 'crawl' : 'both',
      route,
      inbound: 0,
      behindSignIn: false,
    });
  }
  for (const route of routes) {
    if (reached.has(route) || route.dynamic || /[:*]/.test(route.path) || !route.methods.includes('GET')) continue;
    surfaces.push({ path: pathOnly(route.path), title: '', controls: [], ...fromRoute(route), origin: 'source', route, inbound: 0, behindSignIn: false });
  }
  countInbound(surfaces, pages, routes);
  return { surfaces, signIn: markBehindSignIn(surfaces) };
}

function countInbound(surfaces: Surface[], pages: readonly CrawledPage[], routes: readonly IndexedRoute[]): void {
  const counts = new Map<string, number>();
  const add = (from: string, links: readonly string[]) => {
    for (const link of new Set(links.filter((each) => each.startsWith('/')).map(pathOnly))) if (link !== pathOnly(from)) counts.set(link, (counts.get(link) ?? 0) + 1);
  };
  for (const page of pages) add(page.path, page.links);
  for (const route of routes) add(route.path, route.links);
  for (const surface of surfaces) surface.inbound = counts.get(pathOnly(surface.path)) ?? 0;
}

/** The sign-in page, and every other crawled page that showed its very form instead of its own content. */
function markBehindSignIn(surfaces: Surface[]): SignInPlace | undefined {
  const candidates = surfaces.flatMap((surface) => surface.forms.filter((form) => formKind(form, surface.path) === 'sign_in').map((form) => ({ surface, form })));
  if (candidates.length === 0) return undefined;
  const best = candidates.reduce((a, b) => (compareRank(signInRank(b.surface), signInRank(a.surface)) < 0 ? b : a));
  const shown = signature(best.surface, best.form);
  for (const { surface, form } of candidates) {
    if (surface === best.surface || surface.origin === 'source' || signature(surface, form) !== shown) continue;
    surface.behindSignIn = true;
    // What the page really holds is in its source, if the index has it; the crawl saw only the sign-in form.
    const own = surface.route === undefined ? undefined : fromRoute(surface.route);
    surface.forms = own?.forms ?? [];
    surface.controls = [];
    surface.title = '';
    surface.testIds = own?.testIds ?? [];
  }
  return best;
}
