import type { DataSource } from 'typeorm';
import { defaultBranchPushOf } from '../../core/push-event.js';
import { claimReindex, markReindexStarted, releaseReindex } from '../../jobs/codehost/reindex-claims.js';
import type { CodehostEventHandler } from './codehost-handler.js';
import type { PullRequestRepositoryLookup } from './pull-request-runs.js';

/** Starts an incremental re-index of a repository at a commit (onboarding's own start function). */
export interface Reindexer {
  /** Resolves once the re-index is durably started (queued), not finished; throws to have the delivery retried. */
  reindex(organizationId: string, repositoryId: string, commitSha: string): Promise<void>;
}

export interface PushHandlerDeps {
  dataSource: DataSource;
  reindexer: Reindexer;
  findRepository(coordinates: { installationId: number; owner: string; name: string }): Promise<PullRequestRepositoryLookup>;
  now: () => Date;
  /** A claim never started (its worker died) is taken over after this long: the webhook receipt's lease. */
  leaseMs: number;
}

const SKIPPED = {
  no_installation: 'push not delivered through an app installation; nothing re-indexed',
  other_ref: 'push to another branch than the default one, or a tag; nothing re-indexed',
  branch_deleted: 'default branch deleted; nothing re-indexed',
} as const;

/**
 * `push` to a connected repository's default branch re-indexes it at the new head, once per commit: a duplicated,
 * redelivered or concurrently handled push of the same commit starts nothing more, and a push older than one taken
 * already (delivered late) starts nothing (src/jobs/codehost/reindex-claims.ts). A failure to start releases the
 * claim and fails the receipt, retried with back-off.
 */
export function pushEventHandler(deps: PushHandlerDeps): CodehostEventHandler {
  return async (receipt, context) => {
    const push = defaultBranchPushOf(receipt.payload);
    if ('skip' in push) {
      context.logger.info({ skip: push.skip }, SKIPPED[push.skip]);
      return;
    }
    const { installationId, owner, repo, commitSha, pushedAt } = push;
    const where = { installationId, owner, repo, commitSha };
    const found = await deps.findRepository({ installationId, owner, name: repo });
    if (found.kind !== 'connected') {
      context.logger.info({ ...where, ...found }, 'push to a repository that is not connected, or whose installation is inactive; nothing re-indexed');
      return;
    }
    const claim = { repositoryId: found.repository.id, commitSha, pushedAt };
    const claimedAt = deps.now();
    const outcome = await claimReindex(deps.dataSource, claim, claimedAt, deps.leaseMs);
    if (outcome !== 'claimed') {
      context.logger.info({ ...where, outcome }, 'default-branch push already re-indexed, being re-indexed, or older than one that was; nothing more started');
      return;
    }
    try {
      await deps.reindexer.reindex(found.organizationId, found.repository.id, commitSha);
    } catch (error) {
      await releaseReindex(deps.dataSource, claim, claimedAt);
      throw error;
    }
    await markReindexStarted(deps.dataSource, claim);
    context.logger.info({ ...where, repositoryId: found.repository.id }, 'default branch moved; re-index started');
  };
}
