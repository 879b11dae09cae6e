import { selectChecks, type ChangedFiles, type CheckSelection, type SelectableCheck, type SelectionCoverage } from '../../core/check-selection.js';
import { sharedFilePatterns, type PullRequestSettings } from '../../core/pull-request-settings.js';

/**
 * What onboarding knows of a repository's flows and which checks cover them; null when it has no coverage yet (never
 * onboarded, or onboarding has not linked coverage). Scoped by organization: another organization's repository
 * answers null.
 */
export interface CoverageSource {
  coverageOf(scope: { organizationId: string; repositoryId: string }): Promise<SelectionCoverage | null>;
}

/** A pull request's changed files, from the code host's API (src/codehost/pull-request-files.ts). */
export interface ChangedFilesSource {
  changedFiles(installationId: number, pull: { owner: string; repo: string; pullNumber: number }): Promise<ChangedFiles>;
}

/**
 * The coverage of a service that links none: every repository has no coverage, so every pull request replays every
 * check. That is the true answer until onboarding stores coverage links, not a placeholder for one.
 */
export const NO_COVERAGE: CoverageSource = { coverageOf: () => Promise.resolve(null) };

/** Without the app's credentials nothing can list a pull request's files. */
const UNLISTED: ChangedFiles = { paths: [], complete: false, incompleteBecause: "the code host's API is not configured (CODEHOST_APP_ID, CODEHOST_PRIVATE_KEY), so the changed files are unknown" };

/** Tells the pull request that its head replays no check (src/notify/codehost/selection-notice.ts). */
export interface SelectionNotice {
  nothingToRun(installationId: number, head: { owner: string; repo: string; headSha: string }, selection: CheckSelection): Promise<void>;
}

export interface SelectionSources {
  coverage?: CoverageSource;
  changedFiles?: ChangedFilesSource;
  /** Absent (no app credentials): a head that replays nothing is only logged. */
  notice?: SelectionNotice;
}

/**
 * Which active checks the pull request at its head replays, and why (src/core/check-selection.ts). Coverage is read
 * first: with none, every check runs and the code host is not asked for the files.
 */
export async function choosePullRequestChecks(
  sources: SelectionSources,
  pull: { organizationId: string; repositoryId: string; installationId: number; owner: string; repo: string; number: number },
  checks: readonly SelectableCheck[],
  settings: PullRequestSettings,
): Promise<CheckSelection> {
  const coverage = await (sources.coverage ?? NO_COVERAGE).coverageOf({ organizationId: pull.organizationId, repositoryId: pull.repositoryId });
  const known = coverage !== null && coverage.flows.length > 0;
  const changedFiles = !known
    ? { paths: [], complete: true }
    : sources.changedFiles
      ? await sources.changedFiles.changedFiles(pull.installationId, { owner: pull.owner, repo: pull.repo, pullNumber: pull.number })
      : UNLISTED;
  return selectChecks({ changedFiles, coverage, activeChecks: checks, alwaysRun: settings.alwaysRun, sharedFiles: sharedFilePatterns(settings) });
}
