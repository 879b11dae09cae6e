/**
 * The app's routes from every file's facts: Next.js (by file name), React Router, Express and Koa (by declaration),
 * and plain HTML files when no framework declares any route. Routes with the same framework and path are one route
 * (an Express `GET` and `POST` of `/signin`), their methods and files joined.
 */
import type { IndexedFile, IndexedRoute, RouteFramework } from '../model.js';
import type { FileFacts, ScriptFacts, UiFacts } from './facts.js';
import type { IndexLimits } from './limits.js';
import { nextRoutes } from './next-routes.js';
import { createImportResolver } from './resolve-import.js';
import { createRouteContent, type FilePart } from './route-files.js';
import { createServerPrefixes, joinServerPath } from './server-prefixes.js';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ALL'];
const STATIC_ROOTS = new Set(['public', 'static', 'www', 'site']);

interface Draft {
  path: string;
  framework: RouteFramework;
  methods: string[];
  whole: string[];
  parts: FilePart[];
}

const dirOf = (file: string): string => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');

function nextRootsOf(files: IndexedFile[]): string[] {
  const roots = new Set<string>();
  for (const file of files) {
    const facts = file.facts as unknown as FileFacts;
    const base = file.path.slice(file.path.lastIndexOf('/') + 1);
    if (facts.kind === 'manifest' && facts.dependencies.includes('next')) roots.add(dirOf(file.path));
    if (base.startsWith('next.config.')) roots.add(dirOf(file.path));
  }
  return [...roots];
}

function htmlRoutePath(file: string): string {
  const parts = file.split('/');
  if (parts.length > 1 && STATIC_ROOTS.has(parts[0])) parts.shift();
  if (parts[parts.length - 1].toLowerCase().startsWith('index.')) parts.pop();
  return `/${parts.join('/')}`;
}

export function assembleRoutes(files: IndexedFile[], limits: IndexLimits): IndexedRoute[] {
  const scripts = new Map<string, ScriptFacts>();
  const ui = new Map<string, UiFacts>();
  const manifests: string[] = [];
  for (const file of files) {
    const facts = file.facts as unknown as FileFacts;
    if (facts.kind === 'script') scripts.set(file.path, facts);
    if (facts.kind === 'script' || facts.kind === 'html') ui.set(file.path, facts);
    if (facts.kind === 'manifest') manifests.push(dirOf(file.path));
  }
  const resolve = createImportResolver(new Set(files.map((f) => f.path)), manifests);
  const content = createRouteContent({ scripts, ui, resolve, limits });
  const drafts: Draft[] = [];

  for (const next of nextRoutes(nextRootsOf(files), files.map((f) => f.path))) {
    const facts = scripts.get(next.file);
    const methods = !next.api ? ['GET'] : next.framework === 'next-app' ? (facts?.exportedVerbs ?? []) : (facts?.methodChecks ?? []);
    drafts.push({
      path: next.path, framework: next.framework, methods: methods.length ? methods : ['ALL'],
      whole: [next.file, ...next.layouts], parts: [],
    });
  }

  const prefixesOf = createServerPrefixes(scripts, resolve);
  for (const [file, facts] of scripts) {
    for (const route of facts.clientRoutes) {
      const lazy = route.sources.map((source) => resolve(file, source)).filter((f): f is string => f !== null);
      drafts.push({ path: route.path, framework: 'react-router', methods: ['GET'], whole: lazy, parts: [{ file, ranges: route.ranges, refs: route.refs }] });
    }
    for (const route of facts.serverRoutes) {
      for (const prefix of prefixesOf(file, route.receiver)) {
        drafts.push({
          path: joinServerPath(prefix, route.path), framework: route.framework, methods: route.methods, whole: [],
          parts: [{ file, ranges: [[route.start, route.end]], refs: route.refs }],
        });
      }
    }
  }

  if (drafts.length === 0) {
    for (const file of files) {
      if ((file.facts as unknown as FileFacts).kind === 'html') {
        drafts.push({ path: htmlRoutePath(file.path), framework: 'html', methods: ['GET'], whole: [file.path], parts: [] });
      }
    }
  }

  const merged = new Map<string, Draft>();
  for (const draft of drafts) {
    const key = `${draft.framework} ${draft.path}`;
    const same = merged.get(key);
    if (!same) merged.set(key, { ...draft, methods: [...draft.methods], whole: [...draft.whole], parts: [...draft.parts] });
    else {
      for (const method of draft.methods) if (!same.methods.includes(method)) same.methods.push(method);
      same.whole.push(...draft.whole.filter((f) => !same.whole.includes(f)));
      same.parts.push(...draft.parts);
    }
  }

  return [...merged.values()]
    .sort((a, b) => (a.path === b.path ? a.framework.localeCompare(b.framework) : a.path < b.path ? -1 : 1))
    .map((draft) => {
      const { files: routeFiles, forms, links, testIds } = content(draft.whole, draft.parts);
      return {
        path: draft.path,
        framework: draft.framework,
        methods: [...draft.methods].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)),
        files: routeFiles,
        forms,
        links,
        testIds,
        dynamic: draft.path.split('/').some((segment) => segment.startsWith(':') || segment.includes('*')),
      };
    });
}
