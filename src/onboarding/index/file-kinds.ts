/** What the indexer makes of a repository path: whether it is the app's at all, its language, and how it is read. */
import path from 'node:path';

/** Folders of dependencies, build output and tool caches: not the app's source, never read. */
const IGNORED_DIRS = new Set([
  'node_modules', 'bower_components', 'jspm_packages', 'vendor', '.git', '.hg', '.svn', 'dist', 'build', 'out',
  '.next', '.nuxt', '.output', '.svelte-kit', '.vercel', '.netlify', '.turbo', '.cache', '.parcel-cache', 'coverage',
  '.nyc_output', 'storybook-static', '__generated__',
]);

const LANGUAGES: Record<string, string> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.html': 'html', '.htm': 'html', '.css': 'css', '.scss': 'scss', '.sass': 'scss', '.less': 'less',
  '.json': 'json', '.md': 'markdown', '.mdx': 'markdown', '.yml': 'yaml', '.yaml': 'yaml',
  '.vue': 'vue', '.svelte': 'svelte', '.astro': 'astro', '.py': 'python', '.rb': 'ruby', '.go': 'go',
  '.java': 'java', '.kt': 'kotlin', '.php': 'php', '.cs': 'csharp', '.rs': 'rust', '.sh': 'shell',
  '.ejs': 'ejs', '.hbs': 'handlebars', '.pug': 'pug', '.sql': 'sql', '.graphql': 'graphql',
};

/** How a file is read: a script by Babel with the syntax its extension allows, HTML, a package manifest, or not at all. */
export type ReadKind = 'ts' | 'tsx' | 'js' | 'html' | 'manifest' | 'none';

/** True when the path is inside a dependency, build or cache folder, or is not a plain relative path. */
export function isIgnoredPath(file: string): boolean {
  if (file === '' || file.startsWith('/') || file.includes('\0') || file.includes('\\')) return true;
  const parts = file.split('/');
  return parts.some((part, i) => part === '' || part === '.' || part === '..' || (i < parts.length - 1 && IGNORED_DIRS.has(part)));
}

export function languageOf(file: string): string {
  return LANGUAGES[path.posix.extname(file).toLowerCase()] ?? 'other';
}

export function readKindOf(file: string): ReadKind {
  const base = path.posix.basename(file);
  if (base === 'package.json') return 'manifest';
  const lower = base.toLowerCase();
  // Declarations and bundles name no routes and no markup of their own.
  if (lower.endsWith('.d.ts') || lower.endsWith('.d.mts') || /\.min\.[cm]?js$/.test(lower)) return 'none';
  // Tests and mocks start their own servers and name routes they visit: neither is the app's.
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(lower) || file.split('/').some((dir) => dir === '__tests__' || dir === '__mocks__')) {
    return 'none';
  }
  switch (path.posix.extname(lower)) {
    case '.ts': case '.mts': case '.cts': return 'ts';
    case '.tsx': return 'tsx';
    case '.js': case '.jsx': case '.mjs': case '.cjs': return 'js';
    case '.html': case '.htm': return 'html';
    default: return 'none';
  }
}
