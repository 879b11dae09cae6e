/**
 * Next.js routes from file names, under each Next.js app of the repository (a folder whose package.json depends on
 * `next`, or that holds a `next.config.*`): `pages/` (and `src/pages/`) and `app/` (and `src/app/`), dynamic segments
 * (`[id]` is `:id`, `[...slug]` and `[[...slug]]` are `*`), route groups `(shop)` and parallel slots `@modal` removed,
 * private folders `_x` and intercepting routes `(.)x` left out.
 */
import path from 'node:path';

export interface NextRouteDraft {
  framework: 'next-pages' | 'next-app';
  path: string;
  /** The page or route handler. */
  file: string;
  /** Layouts and templates above it (app router) or the custom `_app` (pages router), outermost first. */
  layouts: string[];
  /** True for API routes (`pages/api/**`, `app/**\/route.ts`): their methods come from the handler. */
  api: boolean;
}

const PAGE_EXTENSIONS = new Set(['.js', '.jsx', '.ts', '.tsx', '.mjs', '.mdx']);

function segmentPath(segment: string): string | null {
  if (segment.startsWith('[[...') || segment.startsWith('[...')) return '*';
  if (segment.startsWith('[') && segment.endsWith(']')) return `:${segment.slice(1, -1)}`;
  return segment;
}

function joinSegments(segments: string[]): string {
  return `/${segments.filter((s) => s !== '').join('/')}`;
}

function pagesRoute(pagesDir: string, file: string, files: ReadonlySet<string>): NextRouteDraft | null {
  const relative = file.slice(pagesDir.length + 1);
  const ext = path.posix.extname(relative);
  const base = path.posix.basename(relative, ext);
  // `page.test.tsx` and `page.stories.tsx` are not pages; `[...slug].tsx` is.
  if (!PAGE_EXTENSIONS.has(ext) || base.startsWith('_') || base.replace(/\[[^\]]*\]/g, '').includes('.')) return null;
  const segments = relative.slice(0, -ext.length).split('/');
  if (segments[segments.length - 1] === 'index') segments.pop();
  const routeSegments = segments.map(segmentPath);
  const api = segments[0] === 'api';
  // API routes are handlers: no page wraps them.
  const custom = api ? [] : ['.tsx', '.jsx', '.js', '.ts'].map((e) => `${pagesDir}/_app${e}`).filter((f) => files.has(f));
  return { framework: 'next-pages', path: joinSegments(routeSegments as string[]), file, layouts: custom, api };
}

function appRoute(appDir: string, file: string, files: ReadonlySet<string>): NextRouteDraft | null {
  const relative = file.slice(appDir.length + 1);
  const ext = path.posix.extname(relative);
  const base = path.posix.basename(relative, ext);
  if (!PAGE_EXTENSIONS.has(ext) || (base !== 'page' && base !== 'route')) return null;
  const dirs = relative.split('/').slice(0, -1);
  const segments: string[] = [];
  for (const dir of dirs) {
    if (dir.startsWith('_') || /^\(\.{1,3}\)/.test(dir)) return null;
    if ((dir.startsWith('(') && dir.endsWith(')')) || dir.startsWith('@')) continue;
    segments.push(segmentPath(dir)!);
  }
  const layouts: string[] = [];
  for (let depth = 0; base === 'page' && depth <= dirs.length; depth++) {
    const dir = [appDir, ...dirs.slice(0, depth)].join('/');
    for (const name of ['layout', 'template']) {
      for (const e of ['.tsx', '.jsx', '.js', '.ts']) if (files.has(`${dir}/${name}${e}`)) layouts.push(`${dir}/${name}${e}`);
    }
  }
  return { framework: 'next-app', path: joinSegments(segments), file, layouts, api: base === 'route' };
}

export function nextRoutes(roots: readonly string[], files: readonly string[]): NextRouteDraft[] {
  const set = new Set(files);
  const drafts: NextRouteDraft[] = [];
  for (const root of roots) {
    const prefix = root === '' ? '' : `${root}/`;
    const pagesDirs = [`${prefix}pages`, `${prefix}src/pages`];
    const appDirs = [`${prefix}app`, `${prefix}src/app`];
    for (const file of files) {
      const pagesDir = pagesDirs.find((dir) => file.startsWith(`${dir}/`));
      const appDir = appDirs.find((dir) => file.startsWith(`${dir}/`));
      const draft = pagesDir ? pagesRoute(pagesDir, file, set) : appDir ? appRoute(appDir, file, set) : null;
      if (draft) drafts.push(draft);
    }
  }
  return drafts;
}
