import type { DataSource } from 'typeorm';
import { DefaultBranchPush } from '../../store/entities/default-branch-push.entity.js';
import { isDuplicateKey } from '../../store/duplicate-key.js';

export interface ReindexClaim {
  repositoryId: string;
  commitSha: string;
  pushedAt: Date;
}

/**
 * - `claimed`: this caller starts the re-index of the commit, then calls `markReindexStarted` (or
 *   `releaseReindex` when starting failed, so a retry can claim it again);
 * - `started_before`: a re-index of this commit was started already (a duplicate or redelivered push);
 * - `claimed_elsewhere`: another worker holds a live claim; if it dies, its delivery is retried after the lease, and
 *   that retry takes the claim over;
 * - `stale`: a newer push of the repository was taken already (this one was delivered late).
 */
export type ReindexClaimOutcome = 'claimed' | 'started_before' | 'claimed_elsewhere' | 'stale';

/**
 * Claims the re-index of a default-branch push: one row per (repository, commit), inserted or, when its claim was
 * never started and is older than `leaseMs`, taken over by a compare-and-set; single statements, atomic on both
 * dialects, so two workers racing on one commit start it once.
 */
export async function claimReindex(dataSource: DataSource, claim: ReindexClaim, now: Date, leaseMs: number): Promise<ReindexClaimOutcome> {
  const rows = dataSource.getRepository(DefaultBranchPush);
  const { repositoryId, commitSha, pushedAt } = claim;
  const newer = await rows.createQueryBuilder('push').where('push.repository_id = :repositoryId AND push.pushed_at > :pushedAt', { repositoryId, pushedAt }).getCount();
  if (newer > 0) return 'stale';
  try {
    await rows.insert({ repositoryId, commitSha, pushedAt, started: false, claimedAt: now });
    return 'claimed';
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const takenOver = await dataSource
    .createQueryBuilder()
    .update(DefaultBranchPush)
    .set({ claimedAt: now })
    .where('repository_id = :repositoryId AND commit_sha = :commitSha', { repositoryId, commitSha })
    .andWhere('started = :started', { started: false })
    .andWhere('claimed_at < :expired', { expired: new Date(now.getTime() - leaseMs) })
    .execute();
  if (takenOver.affected === 1) return 'claimed';
  const stored = await rows.findOneBy({ repositoryId, commitSha });
  return stored?.started ? 'started_before' : 'claimed_elsewhere';
}

/** The re-index of the claimed commit was started: every later push of it is a duplicate. */
export async function markReindexStarted(dataSource: DataSource, claim: Pick<ReindexClaim, 'repositoryId' | 'commitSha'>): Promise<void> {
  await dataSource.getRepository(DefaultBranchPush).update({ repositoryId: claim.repositoryId, commitSha: claim.commitSha }, { started: true });
}

/** Starting failed: the claim is given up (only if still this caller's, unstarted), so the delivery's retry claims again. */
export async function releaseReindex(dataSource: DataSource, claim: Pick<ReindexClaim, 'repositoryId' | 'commitSha'>, claimedAt: Date): Promise<void> {
  await dataSource.getRepository(DefaultBranchPush).delete({ repositoryId: claim.repositoryId, commitSha: claim.commitSha, started: false, claimedAt });
}
