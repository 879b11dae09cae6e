import { ErrorCode, userError } from '../../core/errors.js';
import { pullRequestSettingsOf, pullRequestTarget, type PullRequestSettings } from '../../core/pull-request-settings.js';

/**
 * Where a job a pull-request comment starts runs: where the pull request's own runs go (src/core/pull-request-settings.ts):
 * the newest successful deployment of the head when the repository waits for deployments, else its preview template
 * filled in, else its `baseUrl`; always with the repository's allowlist.
 */
export interface TargetRepository {
  id: string;
  baseUrl: string;
  networkAllowlist: string[];
  /** As stored; null: the defaults. */
  pullRequestSettings: Partial<PullRequestSettings> | null;
}

export interface TargetPull {
  number: number;
  headSha: string;
}

export interface CommentTarget {
  baseUrl: string;
  networkAllowlist: string[];
}

/** The URL of the newest successful deployment of `sha` (of `environment` when given), as deployment_status reported it. */
export type DeploymentLookup = (repositoryId: string, sha: string, environment?: string) => Promise<string | undefined>;

/**
 * The target, or a user error (the reply) when the repository waits for a deployment of the head that has not
 * succeeded yet: running against another address would check something the pull request did not build.
 */
export async function targetFor(repository: TargetRepository, pull: TargetPull, deployments: DeploymentLookup): Promise<CommentTarget> {
  const settings = pullRequestSettingsOf(repository.pullRequestSettings);
  const headSha = pull.headSha.toLowerCase();
  const deploymentUrl = settings.waitForDeployment ? await deployments(repository.id, headSha, settings.deploymentEnvironment) : undefined;
  const target = pullRequestTarget(settings, repository, { number: pull.number, headSha }, deploymentUrl);
  if (target.source === 'awaiting_deployment') {
    throw userError(
      ErrorCode.PrCommentAwaitingDeployment,
      `This repository runs pull requests against their preview deployment, and commit ${headSha.slice(0, 7)} has no successful deployment yet; ask again once it is deployed`,
    );
  }
  return { baseUrl: target.url, networkAllowlist: repository.networkAllowlist };
}
