import type { Express } from 'express';

/** A route of an Express app: a method and Express's path (`:id`), or `use` for a static-file mount. */
export interface FoundRoute {
  method: string;
  path: string;
}

/** What the walk reads of Express 5's router layers (the `router` package: `rawPath` is a mount's path). */
interface Layer {
  name: string;
  rawPath?: string | RegExp;
  route?: { path: string | RegExp; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

const text = (path: string | RegExp | undefined) => (path === undefined ? '' : String(path));

function join(prefix: string, path: string): string {
  if (path === '' || path === '/') return prefix || '/';
  return `${prefix}${path}`;
}

/**
 * Every route of `app`, reading its router layers as Express matches them: a route's methods under the paths of the
 * routers it is mounted in, and each static-file mount. Middleware without a route (body parsers, auth) is skipped.
 */
export function expressRoutes(app: Express): FoundRoute[] {
  const found: FoundRoute[] = [];
  const walk = (stack: readonly Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method !== '_all') found.push({ method, path: join(prefix, text(layer.route.path)) });
        }
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, join(prefix, text(layer.rawPath)).replace(/\/$/, ''));
      } else if (layer.name === 'serveStatic') {
        found.push({ method: 'use', path: join(prefix, text(layer.rawPath)) });
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}
