import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Playwright's built trace viewer, as playwright-core ships it: where its files are and what its pages inline. */
export interface TraceViewerFiles {
  dir: string;
  /** `'sha256-…'` of each inline `<script>` of its pages (index.html has one: its file:// fallback message), for a CSP. */
  inlineScriptHashes: string[];
}

/**
 * The viewer's folder. Not in playwright-core's `exports`: its `package.json` is, so the folder is found next to it.
 * playwright-core is resolved from `playwright` (the service's dependency), whose own dependency it is, so a hoisting
 * change cannot pick up another copy.
 */
export function traceViewerDir(): string {
  const fromPlaywright = createRequire(createRequire(import.meta.url).resolve('playwright/package.json'));
  return join(dirname(fromPlaywright.resolve('playwright-core/package.json')), 'lib', 'vite', 'traceViewer');
}

export function traceViewerFiles(dir: string = traceViewerDir()): TraceViewerFiles {
  const hashes = new Set<string>();
  for (const page of ['index.html', 'snapshot.html', 'uiMode.html']) {
    let html: string;
    try {
      html = readFileSync(join(dir, page), 'utf8');
    } catch {
      continue;
    }
    for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      hashes.add(`'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`);
    }
  }
  return { dir, inlineScriptHashes: [...hashes] };
}
