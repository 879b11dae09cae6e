import type { AxeViolation } from './accessibility-findings.js';

/**
 * What axe found on the pages a check visits, remembered between runs of that check in one process. axe's verdict
 * is a function of what it reads: the document, its styles, the viewport (page-digest.ts digests them). A replay
 * that finds a page with the digest audited last for the same check version and page gets that audit's violations
 * instead of running axe again (0.3–1 s a page, most of a passing replay's cost beyond its actions). The violations
 * are kept, not the findings: each run makes its own findings from them (its step indexes, once per run), so a
 * replay reports what a fresh audit of the same page would.
 */
export interface AccessibilityMemory {
  /** The violations remembered for `page` in `scope`, if they were found on a page with this `digest`. */
  recall(scope: string, page: string, digest: string): readonly AxeViolation[] | undefined;
  /** Remembers an audit of `page` in `scope`; it replaces the one before (only the latest digest is kept). */
  remember(scope: string, page: string, digest: string, violations: readonly AxeViolation[]): void;
}

export interface AccessibilityMemoryOptions {
  /** How many pages (scope and page) are remembered; the least recently used goes first. Default 1,000. */
  maxPages?: number;
}

export function createAccessibilityMemory(options: AccessibilityMemoryOptions = {}): AccessibilityMemory {
  const maxPages = options.maxPages ?? 1_000;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const pages = new Map<string, { digest: string; violations: readonly AxeViolation[] }>();
  const keyOf = (scope: string, page: string) => JSON.stringify([scope, page]);
  return {
    recall(scope, page, digest) {
      const key = keyOf(scope, page);
      const entry = pages.get(key);
      if (!entry || entry.digest !== digest) return undefined;
      pages.delete(key);
      pages.set(key, entry);
      return entry.violations;
    },
    remember(scope, page, digest, violations) {
      const key = keyOf(scope, page);
      pages.delete(key);
      pages.set(key, { digest, violations });
      while (pages.size > maxPages) pages.delete(pages.keys().next().value!);
    },
  };
}
