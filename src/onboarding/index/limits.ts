/** Bounds of one index run: what a hostile or merely huge repository can cost. */
export interface IndexLimits {
  /** Files larger than this are not read (bundles, fixtures, data): skipped as `too-large`. */
  maxFileBytes: number;
  /** Files parsed in one revision at most; the rest are skipped as `file-limit`. */
  maxFiles: number;
  /** Repository files behind one route at most (its page, layouts, and what they import, nearest first). */
  maxRouteFiles: number;
  /** How many imports deep a route's files are followed. */
  maxImportDepth: number;
  /** Files read at once. */
  readConcurrency: number;
}

export const DEFAULT_INDEX_LIMITS: IndexLimits = {
  maxFileBytes: 512 * 1024,
  maxFiles: 50_000,
  maxRouteFiles: 60,
  maxImportDepth: 6,
  readConcurrency: 32,
};
