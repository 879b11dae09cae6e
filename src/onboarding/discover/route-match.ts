/**
 * Which indexed route a crawled path is (`/products/42` is `/products/:id`): how a flow found by the crawl gets the
 * source files behind it, and how it is known to be found by both. Static routes win over dynamic ones, as the
 * routers themselves rank them.
 */
import type { IndexedRoute } from '../model.js';

/** `/products/42?sort=a#x` → `/products/42`; a trailing slash is dropped except on `/`. */
export function pathOnly(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '/';
  const withSlash = bare.startsWith('/') ? bare : `/${bare}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A route path as a whole-path pattern: `:name` is one segment, `*` (or `:name*`) the rest of the path. */
export function routePattern(routePath: string): RegExp {
  const segments = pathOnly(routePath)
    .split('/')
    .slice(1)
    .map((segment) => {
      if (segment === '*' || /^:[\w-]+\*$/.test(segment)) return '.*';
      if (/^:[\w-]+\??$/.test(segment)) return segment.endsWith('?') ? '[^/]*' : '[^/]+';
      return escapeRegExp(segment);
    });
  return new RegExp(`^/${segments.join('/')}$`, 'i');
}

/** The route `path` is an instance of, preferring the route with the fewest dynamic segments. */
export function matchRoute(path: string, routes: readonly IndexedRoute[]): IndexedRoute | undefined {
  const bare = pathOnly(path);
  let best: { route: IndexedRoute; score: number } | undefined;
  for (const route of routes) {
    if (!route.methods.includes('GET')) continue;
    if (!routePattern(route.path).test(bare)) continue;
    const score = (route.path.match(/[:*]/g) ?? []).length;
    if (best === undefined || score < best.score) best = { route, score };
  }
  return best?.route;
}
