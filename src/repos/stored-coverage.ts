import type { DataSource } from 'typeorm';
import type { DiscoveredFlow } from '../onboarding/model.js';
import { CoverageLinkRecord } from '../store/entities/coverage-link.entity.js';
import { RepositoryFlow } from '../store/entities/repository-flow.entity.js';

/** A repository's flows (their source files) and coverage links, as pull requests choose their checks by them. */
export interface StoredCoverage {
  flows: { key: string; name: string; files: string[] }[];
  links: { flowKey: string; checkId: string }[];
}

/**
 * What onboarding stored of a repository of the organization: null when it has no flows yet (never onboarded, or
 * onboarding found none), so that every check runs. Another organization's repository reads as none.
 */
export async function readStoredCoverage(dataSource: DataSource, scope: { organizationId: string; repositoryId: string }): Promise<StoredCoverage | null> {
  const flows = await dataSource.getRepository(RepositoryFlow).find({ where: { organizationId: scope.organizationId, repositoryId: scope.repositoryId } });
  if (flows.length === 0) return null;
  const links = await dataSource.getRepository(CoverageLinkRecord).find({ where: { organizationId: scope.organizationId, repositoryId: scope.repositoryId } });
  return {
    flows: flows.map((row) => {
      const flow = row.flow as Partial<DiscoveredFlow>;
      return { key: row.flowKey, name: typeof flow.name === 'string' ? flow.name : row.flowKey, files: Array.isArray(flow.files) ? flow.files.filter((file) => typeof file === 'string') : [] };
    }),
    links: links.map((link) => ({ flowKey: link.flowKey, checkId: link.checkId })),
  };
}
