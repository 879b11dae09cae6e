import { codehostError, type CodehostClient } from './codehost-client.js';

interface PullRequestRef {
  owner: string;
  repo: string;
  pullNumber: number;
}

/** At most this many pages of a pull request's comments are searched for a reply marker (100 a page). */
const MARKER_PAGES = 3;

const statusOf = (error: unknown) => (error as { name?: unknown; status?: unknown } | null)?.name === 'HttpError' ? (error as { status: number }).status : undefined;

/**
 * The calls of a `/qa` conversation on a pull request, through @octokit/rest as the installation (the port is
 * `PullRequestConversation` in src/webhooks/codehost/issue-comment-handler.ts). Failures are coded (`codehostError`): a 429 or
 * 5xx is thrown for the receipt's back-off, never retried here.
 */
export function createPullRequestConversation(client: CodehostClient) {
  const as = (installationId: number) => client.forInstallation(installationId);
  return {
    async pull(installationId: number, { owner, repo, pullNumber }: PullRequestRef): Promise<{ headSha: string; open: boolean; merged: boolean } | null> {
      const octokit = await as(installationId);
      try {
        const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pullNumber });
        return { headSha: data.head.sha, open: data.state === 'open', merged: data.merged === true };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw codehostError(error, `pull request ${owner}/${repo}#${pullNumber}`);
      }
    },

    /** GitHub answers 404 for a login that is no user; such a commenter has no permission. */
    async permission(installationId: number, { owner, repo }: PullRequestRef, login: string): Promise<{ permission: string; roleName: string | null }> {
      const octokit = await as(installationId);
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
        return { permission: data.permission, roleName: data.role_name ?? null };
      } catch (error) {
        if (statusOf(error) === 404) return { permission: 'none', roleName: null };
        throw codehostError(error, `permission of ${login} on ${owner}/${repo}`);
      }
    },

    async hasComment(installationId: number, { owner, repo, pullNumber }: PullRequestRef, marker: string, since: Date): Promise<boolean> {
      const octokit = await as(installationId);
      try {
        for (let page = 1; page <= MARKER_PAGES; page += 1) {
          const { data } = await octokit.rest.issues.listComments({ owner, repo, issue_number: pullNumber, since: since.toISOString(), per_page: 100, page });
          if (data.some((comment) => comment.body?.includes(marker))) return true;
          if (data.length < 100) return false;
        }
        return false;
      } catch (error) {
        throw codehostError(error, `comments of ${owner}/${repo}#${pullNumber}`);
      }
    },

    async comment(installationId: number, { owner, repo, pullNumber }: PullRequestRef, body: string): Promise<void> {
      const octokit = await as(installationId);
      try {
        await octokit.rest.issues.createComment({ owner, repo, issue_number: pullNumber, body });
      } catch (error) {
        throw codehostError(error, `comment on ${owner}/${repo}#${pullNumber}`);
      }
    },
  };
}
