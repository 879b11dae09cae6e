import type { DataSource } from 'typeorm';
import { Check } from '../../store/entities/check.entity.js';
import { PreviewDeployment } from '../../store/entities/preview-deployment.entity.js';
import { PullRequestHead } from '../../store/entities/pull-request-head.entity.js';
import { isDuplicateKey } from '../../store/duplicate-key.js';

/** A pull request's head as one of its events reports it. */
export interface ReportedHead {
  repositoryId: string;
  number: number;
  headSha: string;
  /** The event's `pull_request.updated_at`. */
  updatedAt: Date;
  draft: boolean;
  fork: boolean;
  /** The event closed the pull request. */
  closed: boolean;
}

/**
 * Records a pull request's head unless a newer event recorded one already, and says whether this event's head is
 * the pull request's current one (`current`) or was overtaken (`stale`: an older event delivered late, or one that
 * lost a tie to another head reported at the same instant). Single statements, each atomic on both dialects, so two
 * workers recording at once converge on the newest: insert, else update only when not older, then read back.
 */
export async function recordPullRequestHead(dataSource: DataSource, head: ReportedHead): Promise<'current' | 'stale'> {
  const key = { repositoryId: head.repositoryId, pullNumber: head.number };
  const state = { headSha: head.headSha, eventUpdatedAt: head.updatedAt, draft: head.draft, fork: head.fork, closed: head.closed };
  try {
    await dataSource.getRepository(PullRequestHead).insert({ ...key, ...state });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    await dataSource
      .createQueryBuilder()
      .update(PullRequestHead)
      .set(state)
      .where('repository_id = :repositoryId AND pull_number = :pullNumber', key)
      .andWhere('event_updated_at <= :updatedAt', { updatedAt: head.updatedAt })
      .execute();
  }
  const stored = await dataSource.getRepository(PullRequestHead).findOneByOrFail(key);
  return stored.headSha === head.headSha && stored.eventUpdatedAt.getTime() === head.updatedAt.getTime() ? 'current' : 'stale';
}

/** The pull request's newest recorded state (head, closed); undefined when no event of it was recorded. */
export async function pullRequestHead(dataSource: DataSource, repositoryId: string, pullNumber: number): Promise<PullRequestHead | undefined> {
  return (await dataSource.getRepository(PullRequestHead).findOneBy({ repositoryId, pullNumber })) ?? undefined;
}

/** The open pull requests of the repository whose current head is `sha`. */
export function pullRequestHeadsAt(dataSource: DataSource, repositoryId: string, sha: string): Promise<PullRequestHead[]> {
  return dataSource.getRepository(PullRequestHead).find({ where: { repositoryId, headSha: sha, closed: false }, order: { pullNumber: 'ASC' } });
}

/** A successful deployment of a commit. */
export interface ReportedDeployment {
  repositoryId: string;
  sha: string;
  environment: string;
  /** Validated by the caller: http(s), no credentials (src/core/pull-request-settings.ts `targetUrlProblem`). */
  url: string;
  reportedAt: Date;
}

/** Records a successful deployment; a status older than the one stored for the commit and environment changes nothing. */
export async function recordPreviewDeployment(dataSource: DataSource, deployment: ReportedDeployment): Promise<void> {
  const { repositoryId, sha, environment, url, reportedAt } = deployment;
  try {
    await dataSource.getRepository(PreviewDeployment).insert({ repositoryId, sha, environment, url, reportedAt });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    await dataSource
      .createQueryBuilder()
      .update(PreviewDeployment)
      .set({ url, reportedAt })
      .where('repository_id = :repositoryId AND sha = :sha AND environment = :environment', { repositoryId, sha, environment })
      .andWhere('reported_at <= :reportedAt', { reportedAt })
      .execute();
  }
}

/**
 * The address of the newest successful deployment of `sha`, in `environment` when given (without regard to case),
 * or undefined when there is none.
 */
export async function previewDeploymentUrl(dataSource: DataSource, repositoryId: string, sha: string, environment?: string): Promise<string | undefined> {
  const query = dataSource
    .getRepository(PreviewDeployment)
    .createQueryBuilder('deployment')
    .where('deployment.repository_id = :repositoryId AND deployment.sha = :sha', { repositoryId, sha });
  if (environment !== undefined) query.andWhere('LOWER(deployment.environment) = :environment', { environment: environment.toLowerCase() });
  const newest = await query.orderBy('deployment.reported_at', 'DESC').addOrderBy('deployment.environment', 'ASC').getOne();
  return newest?.url;
}

/**
 * The repository's active checks (compiled, replayable), oldest first, each with its task: what a pull request chooses
 * its replays from (src/core/check-selection.ts).
 */
export async function activeChecks(dataSource: DataSource, organizationId: string, repositoryId: string): Promise<{ id: string; name: string }[]> {
  const checks = await dataSource.getRepository(Check).find({
    select: { id: true, task: true },
    where: { organizationId, repositoryId, status: 'active' },
    order: { createdAt: 'ASC', id: 'ASC' },
  });
  return checks.map((check) => ({ id: check.id, name: check.task }));
}
