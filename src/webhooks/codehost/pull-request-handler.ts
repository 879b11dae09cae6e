import { deploymentCounts, deploymentEventOf, pullRequestEventOf, pullRequestSkipReason } from '../../core/pull-request-event.js';
import { pullRequestSettingsOf, pullRequestTarget } from '../../core/pull-request-settings.js';
import { previewDeploymentUrl, pullRequestHeadsAt, recordPreviewDeployment, recordPullRequestHead } from '../../jobs/codehost/pull-request-records.js';
import type { CodehostEventHandler, CodehostHandlerContext } from './codehost-handler.js';
import { cancelOutdatedRuns, startPullRequestRuns, type PullRequestRepositoryLookup, type PullRequestRunDeps } from './pull-request-runs.js';

/**
 * A delivery without `installation` came from a repository or organization webhook, not through the app: no
 * installation, so no organization it could run for. Completed without effect (it is not malformed, and a retry
 * would change nothing).
 */
function withoutInstallation(payload: Record<string, unknown>, context: CodehostHandlerContext): boolean {
  if (payload.installation !== undefined) return false;
  context.logger.info({ action: payload.action }, 'code-host event not delivered through an app installation; nothing runs');
  return true;
}

/** Logs why an event about a repository that is not connected (or whose installation is inactive) does nothing. */
function notConnected(found: Exclude<PullRequestRepositoryLookup, { kind: 'connected' }>, context: CodehostHandlerContext, where: Record<string, unknown>): void {
  context.logger.info({ ...where, ...found }, 'code-host event about a repository that is not connected, or whose installation is inactive; nothing runs');
}

/**
 * `pull_request` (opened, reopened, synchronize, ready_for_review) on a connected repository replays its active
 * checks at the head commit, and cancels the unfinished runs of its older heads; `closed` is recorded as the pull
 * request's newest state, cancels its unfinished runs and runs nothing. In order:
 * 1. the head is recorded unless a newer event of the pull request was (an older event delivered late starts nothing
 *    and cancels nothing); then the runs the event made pointless are cancelled (`cancelOutdatedRuns`);
 * 2. drafts and forks run only when the repository's settings say so (a draft runs once `ready_for_review`);
 * 3. the target: the deployment of the head when the repository waits for one (none yet: the deployment_status
 *    handler starts the runs when it comes), else the preview template, else the repository's baseUrl;
 * 4. one job per active check (src/webhooks/codehost/pull-request-runs.ts).
 * The head is written before the deployment is read, and the deployment handler writes before it reads heads, so
 * whichever comes second sees the first; when both see each other the source keys start each run once.
 */
export function pullRequestEventHandler(deps: PullRequestRunDeps): CodehostEventHandler {
  return async (receipt, context) => {
    if (withoutInstallation(receipt.payload, context)) return;
    const event = pullRequestEventOf(receipt.payload);
    if (!event) {
      context.logger.info({ action: receipt.payload.action }, 'pull_request action that runs nothing');
      return;
    }
    const { installationId, owner, repo, number, headSha } = event;
    const where = { action: event.action, installationId, owner, repo, pullNumber: number, headSha };
    const found = await deps.findRepository({ installationId, owner, name: repo });
    if (found.kind !== 'connected') return notConnected(found, context, where);
    const { repository, organizationId } = found;
    const closed = event.action === 'closed';
    const recorded = await recordPullRequestHead(deps.dataSource, { repositoryId: repository.id, number, headSha, updatedAt: event.updatedAt, draft: event.draft, fork: event.fork, closed });
    if (recorded === 'stale') {
      context.logger.info({ ...where, updatedAt: event.updatedAt.toISOString() }, 'pull_request event older than the head already recorded; no stale run, nothing cancelled');
      return;
    }
    const cancelled = await cancelOutdatedRuns(deps, { organizationId, installationId, repositoryId: repository.id, number, headSha, closed });
    if (closed) {
      context.logger.info({ ...where, cancelled }, 'pull request closed; its unfinished runs cancelled, and a deployment of its head runs nothing until it is reopened');
      return;
    }
    if (cancelled.length > 0) context.logger.info({ ...where, cancelled }, 'unfinished runs of older heads of the pull request cancelled');
    const settings = pullRequestSettingsOf(repository.pullRequestSettings);
    const skip = pullRequestSkipReason(settings, event);
    if (skip) {
      context.logger.info({ ...where, skip }, skip === 'fork' ? 'pull request from a fork; not run (runForks is off)' : 'draft pull request; not run until ready for review (runDrafts is off)');
      return;
    }
    const deploymentUrl = settings.waitForDeployment ? await previewDeploymentUrl(deps.dataSource, repository.id, headSha, settings.deploymentEnvironment) : undefined;
    const target = pullRequestTarget(settings, repository, { number, headSha }, deploymentUrl);
    if (target.source === 'awaiting_deployment') {
      context.logger.info(where, 'pull request waits for a successful deployment of its head; runs start when it is reported');
      return;
    }
    await startPullRequestRuns(deps, { organizationId, repository, installationId, owner, repo, number, headSha, baseUrl: target.url }, context);
  };
}

/**
 * `deployment_status` with state `success`: records the deployment's address (`environment_url`, else `target_url`)
 * for its commit and environment, and, when the repository waits for deployments and the environment counts, starts
 * the runs of the open pull requests whose current head is that commit, at the newest recorded address. Other states, an
 * address that is not http(s) or carries credentials, and repositories that are not connected record nothing.
 */
export function deploymentStatusEventHandler(deps: PullRequestRunDeps): CodehostEventHandler {
  return async (receipt, context) => {
    if (withoutInstallation(receipt.payload, context)) return;
    const deployment = deploymentEventOf(receipt.payload);
    if (!deployment) {
      context.logger.info({ state: (receipt.payload.deployment_status as { state?: unknown } | undefined)?.state }, 'deployment_status that is not a success; nothing recorded');
      return;
    }
    const { installationId, owner, repo, sha, environment } = deployment;
    const where = { installationId, owner, repo, sha, environment };
    const found = await deps.findRepository({ installationId, owner, name: repo });
    if (found.kind !== 'connected') return notConnected(found, context, where);
    if (deployment.urlProblem !== undefined) {
      context.logger.warn({ ...where, problem: deployment.urlProblem }, 'successful deployment without a usable address (environment_url or target_url); not recorded');
      return;
    }
    const { repository, organizationId } = found;
    await recordPreviewDeployment(deps.dataSource, { repositoryId: repository.id, sha, environment, url: deployment.url, reportedAt: deployment.reportedAt });
    const settings = pullRequestSettingsOf(repository.pullRequestSettings);
    if (!settings.waitForDeployment || !deploymentCounts(settings, environment)) {
      context.logger.info(where, 'deployment recorded; the repository does not wait for deployments of this environment');
      return;
    }
    const url = await previewDeploymentUrl(deps.dataSource, repository.id, sha, settings.deploymentEnvironment);
    for (const head of await pullRequestHeadsAt(deps.dataSource, repository.id, sha)) {
      const skip = pullRequestSkipReason(settings, head);
      if (skip) {
        context.logger.info({ ...where, pullNumber: head.pullNumber, skip }, 'deployed pull request is a draft or from a fork; not run');
        continue;
      }
      const target = pullRequestTarget(settings, repository, { number: head.pullNumber, headSha: sha }, url);
      if (target.source === 'awaiting_deployment') continue;
      await startPullRequestRuns(deps, { organizationId, repository, installationId, owner, repo, number: head.pullNumber, headSha: sha, baseUrl: target.url }, context);
    }
  };
}
