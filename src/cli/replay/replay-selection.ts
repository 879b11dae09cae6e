import { coverageSchema } from '../../api/schemas/ingestions.js';
import { selectChecks, type CheckSelection } from '../../core/check-selection.js';
import type { ApiClient } from '../api-client.js';
import type { ReplayTarget } from './run-replays.js';

/**
 * The checks a change touches, as a pull request would replay them: the repository's coverage (GET …/coverage) and
 * its pull-request settings (always-run checks, shared files) choose among `targets`; with no coverage yet, all.
 */
export async function selectForChange(client: ApiClient, repositoryId: string, targets: readonly ReplayTarget[], changedFiles: readonly string[]): Promise<{ targets: ReplayTarget[]; selection: CheckSelection }> {
  const id = encodeURIComponent(repositoryId);
  const coverage = coverageSchema.parse(await client.call('GET', `/api/repositories/${id}/coverage`));
  const repository = (await client.call('GET', `/api/repositories/${id}`)) as { repository?: { pullRequests?: { alwaysRun?: unknown; sharedFiles?: unknown } } };
  const settings = repository.repository?.pullRequests ?? {};
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : []);
  const selection = selectChecks({
    changedFiles: { paths: changedFiles, complete: true },
    coverage: coverage.flows.length === 0 ? null : {
      flows: coverage.flows.map((flow) => ({ key: flow.key, name: flow.name, files: flow.files })),
      links: coverage.flows.flatMap((flow) => flow.checks.map((check) => ({ flowKey: flow.key, checkId: check.checkId }))),
    },
    activeChecks: targets.map((target) => ({ id: target.checkId, name: target.name })),
    alwaysRun: strings(settings.alwaysRun),
    sharedFiles: strings(settings.sharedFiles),
  });
  const chosen = new Set(selection.selected.map((each) => each.checkId));
  return { targets: targets.filter((target) => chosen.has(target.checkId)), selection };
}
