/**
 * The handle of a job's messages on a pull request, as `job_notifications.message_handle` keeps it (at most 128
 * characters): the PR comment's id and the check run's id, `comment=<id>;check=<id>`. Either part may be missing:
 * after a crash between the two posts, recovery finds one of them, and the next delivery posts the other.
 */
export interface PullRequestHandle {
  commentId: number | null;
  checkRunId: number | null;
}

export const HANDLE_MAX = 128;

const HANDLE = /^(?:comment=(\d{1,20}))?;?(?:check=(\d{1,20}))?$/;

export function formatPullRequestHandle({ commentId, checkRunId }: PullRequestHandle): string {
  return [...(commentId !== null ? [`comment=${commentId}`] : []), ...(checkRunId !== null ? [`check=${checkRunId}`] : [])].join(';');
}

/** The ids in a stored handle; null when it is not one of ours (or names nothing). */
export function parsePullRequestHandle(handle: string): PullRequestHandle | null {
  const match = HANDLE.exec(handle);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  const id = (digits: string | undefined) => (digits === undefined ? null : Number(digits));
  const parsed = { commentId: id(match[1]), checkRunId: id(match[2]) };
  return formatPullRequestHandle(parsed) === handle && [parsed.commentId, parsed.checkRunId].every((value) => value === null || Number.isSafeInteger(value)) ? parsed : null;
}
