/**
 * Resolves an import specifier to a file of the revision, as bundlers do: relative paths with or without extension,
 * `index` files, TypeScript's `.js`-for-`.ts` spelling, and the `@/` and `~/` aliases of the nearest package's root
 * (or its `src/`). Packages and anything outside the repository resolve to null.
 */
import path from 'node:path';

const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.json'];
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

export type ImportResolver = (from: string, specifier: string) => string | null;

export function createImportResolver(files: ReadonlySet<string>, packageRoots: readonly string[]): ImportResolver {
  const cache = new Map<string, string | null>();
  const roots = new Set(packageRoots);
  const rootOf = (file: string): string => {
    let dir = path.posix.dirname(file);
    for (;;) {
      if (roots.has(dir === '.' ? '' : dir)) return dir === '.' ? '' : dir;
      if (dir === '.' || dir === '/' || dir === '') return '';
      dir = path.posix.dirname(dir);
    }
  };
  const tryBase = (base: string): string | null => {
    if (base.startsWith('..') || base.startsWith('/')) return null;
    for (const ext of EXTENSIONS) if (files.has(base + ext)) return base + ext;
    const ext = path.posix.extname(base);
    for (const alt of TS_FOR_JS[ext] ?? []) {
      const candidate = base.slice(0, -ext.length) + alt;
      if (files.has(candidate)) return candidate;
    }
    for (const ext of EXTENSIONS.slice(1)) if (files.has(`${base}/index${ext}`)) return `${base}/index${ext}`;
    return null;
  };
  return (from, specifier) => {
    const key = `${from}\0${specifier}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let result: string | null = null;
    const bare = specifier.split('?')[0];
    if (bare.startsWith('./') || bare.startsWith('../') || bare === '.' || bare === '..') {
      result = tryBase(path.posix.normalize(path.posix.join(path.posix.dirname(from), bare)));
    } else if (bare.startsWith('@/') || bare.startsWith('~/')) {
      const root = rootOf(from);
      const rest = bare.slice(2);
      result = tryBase(path.posix.normalize(path.posix.join(root, 'src', rest))) ?? tryBase(path.posix.normalize(path.posix.join(root, rest)));
    }
    cache.set(key, result);
    return result;
  };
}
