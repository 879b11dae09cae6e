/**
 * What each screen of the dashboard costs on a first load: the entry's JavaScript and everything it imports
 * statically, plus the screen's own lazily loaded chunk and its static imports, gzip-compressed, read from Vite's
 * build manifest (`dist/web/.vite/manifest.json`). The build prints it and fails over the budget; `npm run
 * bench:web` prints it too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Issue 27: the first load of the jobs screen under 200 KB of compressed JavaScript. */
export const JOBS_SCREEN_BUDGET_BYTES = 200 * 1024;

/** The screens, by the source file of their lazily loaded module (web/src/routes.ts names the same files). */
export const ROUTE_SOURCES: Record<string, string> = {
  jobs: 'src/screens/jobs-screen.tsx',
  job: 'src/screens/job-screen.tsx',
  'new job': 'src/screens/new-job-screen.tsx',
  checks: 'src/screens/checks-screen.tsx',
  check: 'src/screens/check-screen.tsx',
  repositories: 'src/screens/repositories-screen.tsx',
  installations: 'src/screens/installations-screen.tsx',
  'api keys': 'src/screens/keys-screen.tsx',
  execution: 'src/screens/execution-screen.tsx',
};

export interface RouteSize {
  route: string;
  files: string[];
  gzipBytes: number;
}

function staticClosure(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (chunk === undefined || into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
}

/** The gzip size of each route's first load, from a finished build in `outDir`. */
export function routeSizes(outDir: string): RouteSize[] {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (entry === undefined) throw new Error(`no entry in ${outDir}/.vite/manifest.json`);
  const gzipped = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = gzipped.get(file);
    if (size === undefined) gzipped.set(file, (size = gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length));
    return size;
  };
  return Object.entries(ROUTE_SOURCES).map(([route, source]) => {
    const files = new Set<string>();
    staticClosure(manifest, entry, files);
    if (manifest[source] === undefined) throw new Error(`the build has no chunk for ${source} (route ${route})`);
    staticClosure(manifest, source, files);
    const js = [...files].filter((file) => file.endsWith('.js'));
    return { route, files: js, gzipBytes: js.reduce((sum, file) => sum + sizeOf(file), 0) };
  });
}

export function formatRouteSizes(sizes: RouteSize[]): string {
  return sizes.map(({ route, gzipBytes, files }) => `  ${route.padEnd(14)} ${(gzipBytes / 1024).toFixed(1).padStart(7)} KB gzip  (${files.length} files)`).join('\n');
}
