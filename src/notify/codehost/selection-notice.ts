import type { CodehostClient } from '../../codehost/codehost-client.js';
import { codehostError } from '../../codehost/codehost-client.js';
import type { CheckSelection } from '../../core/check-selection.js';
import { inert } from './safe-markdown.js';

/** The check run that says a pull request's head replays no check. */
export const NOTHING_TO_RUN_NAME = 'QA: no checks affected';

const externalId = (headSha: string) => `qa-selection:${headSha}`;

/**
 * When a change touches no flow and no check is always-run, no run is made, so no run's comment or check run could
 * say so: this posts one completed check run (`skipped`) on the head commit that says why and how many checks were
 * skipped, once per head (found again by its `external_id` before posting). Failures are coded (`codehostError`) and
 * fail the delivery, retried with back-off; the retry posts it once.
 */
export function createSelectionNotice(client: Pick<CodehostClient, 'forInstallation'>, options: { appId?: number } = {}) {
  return {
    async nothingToRun(installationId: number, head: { owner: string; repo: string; headSha: string }, selection: CheckSelection): Promise<void> {
      const { owner, repo, headSha } = head;
      try {
        const octokit = await client.forInstallation(installationId);
        const listed = await octokit.rest.checks.listForRef({ owner, repo, ref: headSha, check_name: NOTHING_TO_RUN_NAME, filter: 'all', per_page: 100, ...(options.appId !== undefined ? { app_id: options.appId } : {}) });
        if (listed.data.check_runs.some((run) => run.external_id === externalId(headSha))) return;
        await octokit.rest.checks.create({
          owner,
          repo,
          name: NOTHING_TO_RUN_NAME,
          head_sha: headSha,
          external_id: externalId(headSha),
          status: 'completed',
          conclusion: 'skipped',
          output: { title: `No QA check affected: ${selection.skipped} skipped`, summary: `${inert(selection.reason, 600)}.` },
        });
      } catch (error) {
        throw codehostError(error, `the no-checks notice on ${owner}/${repo}@${headSha.slice(0, 7)}`);
      }
    },
  };
}
