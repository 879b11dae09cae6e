import { z } from 'zod';
import { webhookPayloadInvalid } from './webhook-receipt.js';

/**
 * A `push` to a repository's default branch: a merge (merge commit, squash or rebase), a merge queue's push, or a
 * direct push; what re-indexes the repository at its new head (issue 28: "Merging into the default branch
 * re-indexes"). The push, not `pull_request` closed+merged, because every way the default branch moves sends one, and
 * its `after` is the branch's head, the revision to index.
 */
export interface DefaultBranchPush {
  installationId: number;
  owner: string;
  repo: string;
  /** The branch's new head (`after`). */
  commitSha: string;
  /** `repository.pushed_at`: orders pushes of one repository (whole seconds). */
  pushedAt: Date;
}

const name = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/);
const sha = z.string().regex(/^[0-9a-fA-F]{40}$/).transform((value) => value.toLowerCase());
/** GitHub sends `pushed_at` as Unix seconds in `push` payloads and as an ISO time elsewhere. */
const pushedAt = z.union([
  z.number().int().nonnegative().transform((seconds) => new Date(seconds * 1000)),
  z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
]);

const pushEvent = z.object({
  ref: z.string().max(1024),
  after: sha,
  deleted: z.boolean().optional(),
  installation: z.object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).optional(),
  repository: z.object({ name, owner: z.object({ login: name }), default_branch: z.string().min(1).max(255), pushed_at: pushedAt }),
});

/** Why a push re-indexes nothing. */
export type PushSkip = 'no_installation' | 'other_ref' | 'branch_deleted';

/**
 * The default-branch push a `push` delivery reports, or why it re-indexes nothing: not through the app, another
 * branch or a tag, or the branch deleted (`after` all zeros). A payload of the wrong shape is a coded error
 * (`webhook.payload_invalid`).
 */
export function defaultBranchPushOf(payload: unknown): DefaultBranchPush | { skip: PushSkip } {
  const parsed = pushEvent.safeParse(payload);
  if (!parsed.success) throw webhookPayloadInvalid('push', parsed.error);
  const { ref, after, deleted, installation, repository } = parsed.data;
  if (!installation) return { skip: 'no_installation' };
  if (ref !== `refs/heads/${repository.default_branch}`) return { skip: 'other_ref' };
  if (deleted === true || /^0{40}$/.test(after)) return { skip: 'branch_deleted' };
  return { installationId: installation.id, owner: repository.owner.login, repo: repository.name, commitSha: after, pushedAt: repository.pushed_at };
}
