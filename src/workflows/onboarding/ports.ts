import type { CompiledCheck } from '../../core/check.js';
import type { ConnectRepositoryInput } from '../../repos/repository-service.js';
import type { CoverageLink, CrawledPage, DiscoveredFlow, FetchedRevision, RepositoryIndex } from '../../onboarding/model.js';

/** The repository as the steps see it: what to clone and what to crawl, never a secret. */
export type OnboardingRepository = { id: string; organizationId: string } & Pick<
  ConnectRepositoryInput,
  'provider' | 'providerInstallationId' | 'owner' | 'name' | 'defaultBranch' | 'cloneUrl' | 'baseUrl' | 'networkAllowlist'
>;

/** A stored check of the repository as coverage sees it: its task and its latest compiled version (null: none yet). */
export interface CoverageCheck {
  checkId: string;
  task: string;
  version: number;
  compiled: CompiledCheck | null;
}

/**
 * The steps' implementations, injected by the composition root (src/compose/): the workflow stores, orders, bounds and
 * retries; the ports only compute. Each takes `signal` (aborted when the worker gives the run up) and throws an
 * `AppError` with a code for a failure the user should read (an unknown revision, a repository too large); anything
 * else is retried, then recorded as `onboarding.step_failed`.
 */
export interface OnboardingPorts {
  /**
   * Checks out `revision` (a full commit SHA, or null for the default branch's head) into a new temporary folder.
   * The workflow calls `remove()` once the index step is over, crash or not.
   */
  fetch(input: { repository: OnboardingRepository; revision: string | null; signal: AbortSignal }): Promise<FetchedRevision>;
  /** Indexes the fetched files, re-reading only those whose blob id is not in `previous` (the repository's last index). */
  index(input: { repository: OnboardingRepository; fetched: FetchedRevision; previous: RepositoryIndex | null; signal: AbortSignal }): Promise<RepositoryIndex>;
  /**
   * Crawls `baseUrl` in the browser (same origin and the allowlist, bounded, nothing submitted). Needs live execution.
   * The index's routes say which pages to open besides those links reach (a page behind sign-in shows its sign-in form).
   */
  crawl(input: { repository: OnboardingRepository; index: RepositoryIndex; signal: AbortSignal }): Promise<CrawledPage[]>;
  /** Joins the index and the crawl into flows with their edge cases (keys stable across revisions). May use the planner. */
  discover(input: { repository: OnboardingRepository; index: RepositoryIndex; pages: CrawledPage[]; signal: AbortSignal }): Promise<DiscoveredFlow[]>;
  /** Which stored checks exercise which flows (pure: no I/O). */
  linkCoverage(flows: DiscoveredFlow[], checks: CoverageCheck[]): CoverageLink[];
}
