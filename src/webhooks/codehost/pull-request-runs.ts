import type { DataSource } from 'typeorm';
import type { CodehostChannelContext } from '../../core/channel-context.js';
import { ErrorCode, isAppError } from '../../core/errors.js';
import { codehostPrincipal } from '../../core/principal.js';
import { pullRequestRunKey, pullRequestRunKeyPrefix } from '../../core/pull-request-event.js';
import { selectionNote } from '../../core/check-selection.js';
import { pullRequestSettingsOf, type PullRequestSettings } from '../../core/pull-request-settings.js';
import type { JobService } from '../../jobs/job-service.js';
import { activeChecks, pullRequestHead } from '../../jobs/codehost/pull-request-records.js';
import type { CodehostHandlerContext } from './codehost-handler.js';
import { choosePullRequestChecks, type SelectionSources } from './pull-request-selection.js';

/** What the pull-request handlers read of a connected repository (`repositories` row). */
export interface PullRequestRepository {
  id: string;
  baseUrl: string;
  networkAllowlist: string[];
  pullRequestSettings: Partial<PullRequestSettings> | null;
}

/** The repository a code-host event names (src/repos/codehost-repositories.ts `findCodehostRepository`). */
export type PullRequestRepositoryLookup =
  | { kind: 'connected'; organizationId: string; repository: PullRequestRepository }
  | { kind: 'installation_inactive'; status: string }
  | { kind: 'not_connected'; reason: string };

/**
 * What the pull-request handlers need: the store, the job use cases, the lookup of an event's repository, and what
 * chooses the checks a change replays (`coverage` absent: no repository has coverage, every check runs).
 */
export interface PullRequestRunDeps extends SelectionSources {
  dataSource: DataSource;
  jobs: Pick<JobService, 'create' | 'cancelMadeUnder'>;
  findRepository(coordinates: { installationId: number; owner: string; name: string }): Promise<PullRequestRepositoryLookup>;
}

/** One pull request at one head, as its runs name it. */
export interface PullRequestRunRequest {
  organizationId: string;
  repository: PullRequestRepository;
  installationId: number;
  /** As the event spells them (the progress comment and check run go to this repository). */
  owner: string;
  repo: string;
  number: number;
  headSha: string;
  /** Where the browser goes (`pullRequestTarget`). */
  baseUrl: string;
}

/**
 * The pull request's runs that its newest event made pointless, cancelled: on `closed` every unfinished one, else
 * those of other heads (a push replaced the code they test). Only the runs its events started (their source keys);
 * a run somebody asked for with a `/qa` comment is theirs to cancel. Returns the ids cancelled.
 */
export async function cancelOutdatedRuns(
  deps: PullRequestRunDeps,
  pull: { organizationId: string; installationId: number; repositoryId: string; number: number; headSha: string; closed: boolean },
): Promise<string[]> {
  const principal = codehostPrincipal(pull.organizationId, pull.installationId, null);
  const current = pullRequestRunKeyPrefix(pull, pull.headSha);
  const why = pull.closed
    ? { reason: 'pull_request_closed', message: 'the pull request was closed' }
    : { reason: 'superseded', message: `a newer commit (${pull.headSha.slice(0, 7)}) was pushed to the pull request` };
  return deps.jobs.cancelMadeUnder(principal, pullRequestRunKeyPrefix(pull), why, (key) => !pull.closed && key.startsWith(current));
}

/**
 * Replays the active checks the change touches (src/core/check-selection.ts; every one while the repository has no
 * coverage) at the pull request's head: one `codehost` job per check, whose channelContext names the pull request
 * (its progress goes to the PR comment and check run) and says why the check was chosen and how many were skipped.
 * Each job's source key is unique per (repository, PR, head, check), so a duplicate or redelivered event, a reopened
 * pull request at the same head, or a deployment racing the pull request event, start each run once. A paused live
 * execution (503 `execution.paused`) and any other failure (the code host listing the files included) propagate: the
 * receipt fails and is retried with back-off, and the retry starts only the runs not started before.
 */
export async function startPullRequestRuns(deps: PullRequestRunDeps, request: PullRequestRunRequest, context: CodehostHandlerContext): Promise<{ started: number }> {
  const { organizationId, repository, installationId, owner, repo, number, headSha, baseUrl } = request;
  const principal = codehostPrincipal(organizationId, installationId, null);
  const checks = await activeChecks(deps.dataSource, organizationId, repository.id);
  const selection = await choosePullRequestChecks(deps, { organizationId, repositoryId: repository.id, installationId, owner, repo, number }, checks, pullRequestSettingsOf(repository.pullRequestSettings));
  context.logger.info(
    { repositoryId: repository.id, pullNumber: number, headSha, mode: selection.mode, reason: selection.reasonCode, selected: selection.selected.length, skipped: selection.skipped },
    `checks chosen for the pull request: ${selection.reason}`,
  );
  if (selection.selected.length === 0 && selection.skipped > 0) await deps.notice?.nothingToRun(installationId, { owner, repo, headSha }, selection);
  let started = 0;
  for (const { checkId } of selection.selected) {
    const channelContext: CodehostChannelContext = { channel: 'codehost', provider: 'codehost', installationId, owner, repo, pullNumber: number, headSha, selection: selectionNote(selection, checkId) };
    try {
      await deps.jobs.create(principal, {
        repositoryId: repository.id,
        checkId,
        baseUrl,
        commitSha: headSha,
        networkAllowlist: repository.networkAllowlist,
        trigger: 'codehost',
        channelContext,
        sourceKey: pullRequestRunKey({ repositoryId: repository.id, number, headSha, checkId }),
      });
      started += 1;
    } catch (error) {
      // A check deleted since it was listed has nothing to replay; failing the receipt would retry it in vain.
      if (!(isAppError(error) && error.code === ErrorCode.CheckNotFound)) throw error;
      context.logger.info({ checkId }, 'check deleted before its pull-request run was created; skipped');
    }
  }
  context.logger.info({ repositoryId: repository.id, pullNumber: number, headSha, baseUrl, checks: selection.selected.length, started }, 'pull-request runs started (or found started before)');
  // A close or a push recorded while these runs were being created cancelled only the runs it found then (a
  // deployment handler reads the open heads before it creates). It records before it cancels, and these runs were
  // created before this read: one of the two sees the other.
  const now = await pullRequestHead(deps.dataSource, repository.id, number);
  if (now && (now.closed || now.headSha !== headSha)) {
    const cancelled = await cancelOutdatedRuns(deps, { organizationId, installationId, repositoryId: repository.id, number, headSha: now.headSha, closed: now.closed });
    context.logger.info({ repositoryId: repository.id, pullNumber: number, headSha, cancelled }, 'pull request closed or pushed to while its runs were started; those runs cancelled');
  }
  return { started };
}
