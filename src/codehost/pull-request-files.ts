import type { ChangedFiles } from '../core/check-selection.js';
import { ErrorCode } from '../core/errors.js';
import { codehostError, type CodehostClient } from './codehost-client.js';

/**
 * GitHub lists at most the first 3,000 files of a pull request
 * (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests-files); a list that long may be cut short.
 */
export const PULL_FILES_MAX = 3_000;
const PER_PAGE = 100;

/**
 * A pull request's changed files through @octokit/rest as the installation (`pulls.listFiles`, every page): the
 * port is `ChangedFilesSource` in src/webhooks/codehost/pull-request-runs.ts. A renamed file counts under both names
 * (the flows of either may be affected). The list is incomplete when it reaches GitHub's cap, or when the code host
 * refuses to list the files (another 4xx than an authorization failure, such as a diff too large to list): check
 * selection then replays every check. A rate limit, a 5xx and a refused token are thrown (coded, `codehostError`), for
 * the delivery's back-off.
 */
export function createPullRequestFiles(client: Pick<CodehostClient, 'forInstallation'>) {
  return {
    async changedFiles(installationId: number, pull: { owner: string; repo: string; pullNumber: number }): Promise<ChangedFiles> {
      const { owner, repo, pullNumber } = pull;
      const octokit = await client.forInstallation(installationId);
      const paths = new Set<string>();
      let listed = 0;
      try {
        for await (const page of octokit.paginate.iterator(octokit.rest.pulls.listFiles, { owner, repo, pull_number: pullNumber, per_page: PER_PAGE })) {
          for (const file of page.data) {
            paths.add(file.filename);
            if (file.previous_filename) paths.add(file.previous_filename);
          }
          listed += page.data.length;
          if (listed >= PULL_FILES_MAX) break;
        }
      } catch (error) {
        const coded = codehostError(error, `changed files of ${owner}/${repo}#${pullNumber}`);
        if (coded.code !== ErrorCode.CodehostRequestFailed) throw coded;
        const status = typeof coded.details?.status === 'number' ? ` (${coded.details.status})` : '';
        return { paths: [...paths], complete: false, incompleteBecause: `the code host did not list the changed files${status}` };
      }
      if (listed >= PULL_FILES_MAX) {
        return { paths: [...paths], complete: false, incompleteBecause: `the code host lists at most ${PULL_FILES_MAX.toLocaleString('en')} changed files, and this pull request has that many or more` };
      }
      return { paths: [...paths], complete: true };
    },
  };
}
