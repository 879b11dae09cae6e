import type { BrowserPool } from '../browser/browser-pool.js';
import type { CodehostClient } from '../codehost/codehost-client.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { crawlSite } from '../onboarding/discover/crawl-site.js';
import { discoverFlows } from '../onboarding/discover/discover-flows.js';
import { flowsToName, withModelNames } from '../onboarding/discover/flow-names.js';
import { linkCoverage } from '../onboarding/discover/link-coverage.js';
import { createRevisionFetcher } from '../onboarding/fetch/revision-fetcher.js';
import { indexRevision } from '../onboarding/index/index-revision.js';
import type { RepositoryIndex } from '../onboarding/model.js';
import type { Planner } from '../planner/planner.js';
import type { OnboardingPorts } from '../workflows/onboarding.js';

/** How far discovery's crawl goes: enough for an app's main pages, bounded so one onboarding cannot crawl for long. */
export const CRAWL_LIMITS = { maxPages: 40, maxDepth: 3, timeoutMs: 120_000 } as const;

/**
 * The index's pages with no dynamic segment, for the crawl to open besides what links reach: a page no link leads to
 * is still read, and one behind sign-in shows itself as the sign-in form (its flows then sign in first).
 */
function staticPagePaths(index: RepositoryIndex): string[] {
  const paths = index.routes.filter((route) => !route.dynamic && route.methods.includes('GET') && /^\/[^:*?#]*$/.test(route.path)).map((route) => route.path);
  return [...new Set(paths)].slice(0, CRAWL_LIMITS.maxPages);
}

/** A provider installation id the code host can issue a token for (`qa init`'s stand-in `local` is none). */
const INSTALLATION_NUMBER = /^[1-9][0-9]{0,15}$/;

/**
 * Onboarding's steps as the workflow's ports: the revision fetched with git (with an installation token when the
 * code host's app is configured), indexed by blob id, the app crawled in the worker's browser, flows discovered by
 * rules (no network) and, with a model planner configured, named by it, and coverage linked from the checks' compiled
 * steps.
 */
export function createOnboardingPorts(deps: { config: Config; logger: Logger; browsers: BrowserPool; codehost: CodehostClient | undefined; planner?: Planner }): OnboardingPorts {
  const { config, logger, browsers, codehost, planner } = deps;
  const fetcher = createRevisionFetcher({
    logger: logger.child({ component: 'revision-fetch' }),
    tokenFor: codehost && (async (installationId) => {
      if (!INSTALLATION_NUMBER.test(installationId)) throw new Error(`installation ${installationId} is not one the code host can issue a token for`);
      return (await codehost.installationToken(Number(installationId))).token;
    }),
    extraCaFile: config.onboardingFetch.extraCaFile,
    // Where git is when the environment does not say (a process started with an empty one).
    environment: { PATH: '/usr/local/bin:/usr/bin:/bin', ...config.onboardingFetch.gitEnvironment },
  });
  const crawlLogger = logger.child({ component: 'crawl' });
  const discoverLogger = logger.child({ component: 'discover' });
  return {
    fetch: ({ repository, revision, signal }) =>
      fetcher.fetch(
        { cloneUrl: repository.cloneUrl, revision, defaultBranch: repository.defaultBranch, installationId: codehost ? repository.providerInstallationId : null },
        { signal },
      ),
    index: ({ fetched, previous }) => indexRevision({ dir: fetched.dir, commitSha: fetched.commitSha, files: fetched.files, previous: previous ?? undefined }),
    crawl: async ({ repository, index, signal }) => {
      const crawled = await crawlSite(
        { browsers, logger: crawlLogger, now: () => performance.now() },
        { baseUrl: repository.baseUrl, networkAllowlist: repository.networkAllowlist, limits: CRAWL_LIMITS, seeds: staticPagePaths(index) },
        signal,
      );
      return crawled.pages;
    },
    discover: async ({ index, pages }) => {
      const flows = discoverFlows({ index, pages });
      if (planner?.nameFlows === undefined || flows.length === 0) return flows;
      // The model only names: a failure leaves the rules' names, and onboarding goes on.
      const naming = await planner.nameFlows(flowsToName(flows));
      if (!naming.ok) {
        discoverLogger.warn({ reason: naming.reason, requests: naming.calls.length }, 'the model planner named no flows; they keep the names discovery gave');
        return flows;
      }
      discoverLogger.info({ named: naming.names.length, flows: flows.length, requests: naming.calls.length }, 'the model planner named flows');
      return withModelNames(flows, naming.names);
    },
    linkCoverage: (flows, checks) =>
      linkCoverage({ flows, checks: checks.flatMap((check) => (check.compiled === null ? [] : [{ checkId: check.checkId, compiled: check.compiled }])) }),
  };
}
