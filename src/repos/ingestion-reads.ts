import { MoreThan, type DataSource } from 'typeorm';
import { notFoundError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { DiscoveredFlow } from '../onboarding/model.js';
import { CatalogBuild } from '../store/entities/catalog-build.entity.js';
import { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import { CoverageLinkRecord } from '../store/entities/coverage-link.entity.js';
import { IngestionCheckpoint } from '../store/entities/ingestion-checkpoint.entity.js';
import { IngestionEvent } from '../store/entities/ingestion-event.entity.js';
import { IngestionRun } from '../store/entities/ingestion-run.entity.js';
import { RepositoryFlow } from '../store/entities/repository-flow.entity.js';
import { isIngestionOver } from '../core/ingestion-status.js';

/** Events one read hands back at most; a follower reads on from the last. */
const EVENTS_PAGE = 500;

export interface IngestionDetail {
  run: IngestionRun;
  checkpoints: IngestionCheckpoint[];
  builds: CatalogBuild[];
}

export interface FlowCoverage {
  flow: DiscoveredFlow;
  links: { checkId: string; reason: string; source: string }[];
}

/**
 * Reads of ingestion runs and what they found, scoped by the caller's organization: another organization's ids are
 * "not found", as everywhere.
 */
export function createIngestionReads(dataSource: DataSource) {
  async function runOf(principal: Principal, id: string): Promise<IngestionRun> {
    const run = await dataSource.getRepository(IngestionRun).findOneBy({ id, organizationId: principal.organizationId });
    if (!run) throw notFoundError('ingestion');
    return run;
  }

  /** `coverage` of a repository of the organization, for callers that act for it (a pull request's webhook). */
  async function repositoryCoverage({ organizationId, repositoryId }: { organizationId: string; repositoryId: string }): Promise<FlowCoverage[]> {
    const repository = await dataSource.getRepository(ConnectedRepository).findOneBy({ id: repositoryId, organizationId });
    if (!repository) throw notFoundError('repository');
    const flows = await dataSource.getRepository(RepositoryFlow).findBy({ repositoryId });
    const links = await dataSource.getRepository(CoverageLinkRecord).find({ where: { repositoryId }, order: { checkId: 'ASC' } });
    return flows
      .map((row) => row.flow as DiscoveredFlow)
      .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1))
      .map((flow) => ({ flow, links: links.filter((link) => link.flowKey === flow.key).map(({ checkId, reason, source }) => ({ checkId, reason, source })) }));
  }

  return {
    repositoryCoverage,

    /** The repository's newest ingestion run, or null (the repository is the caller's: checked by the caller). */
    async latest(repositoryId: string): Promise<IngestionRun | null> {
      return dataSource.getRepository(IngestionRun).findOne({ where: { repositoryId }, order: { createdAt: 'DESC', id: 'DESC' } });
    },

    async get(principal: Principal, id: string): Promise<IngestionDetail> {
      const run = await runOf(principal, id);
      const checkpoints = await dataSource.getRepository(IngestionCheckpoint).find({ where: { ingestionRunId: id }, order: { completedAt: 'ASC' } });
      const builds = await dataSource.getRepository(CatalogBuild).find({ where: { ingestionRunId: id }, order: { createdAt: 'ASC', flowKey: 'ASC' } });
      return { run, checkpoints, builds };
    },

    /** Events after index `after` (a page at most), and whether the run is over (no event will follow the last). */
    async eventsAfter(principal: Principal, id: string, after: number): Promise<{ events: IngestionEvent[]; over: boolean }> {
      const run = await runOf(principal, id);
      const events = await dataSource.getRepository(IngestionEvent).find({ where: { ingestionRunId: id, seq: MoreThan(after) }, order: { seq: 'ASC' }, take: EVENTS_PAGE });
      return { events, over: isIngestionOver(run.status) && events.length < EVENTS_PAGE };
    },

    /** The repository's flows (most valuable first) with the checks that cover each. */
    coverage(principal: Principal, repositoryId: string): Promise<FlowCoverage[]> {
      return repositoryCoverage({ organizationId: principal.organizationId, repositoryId });
    },

  };
}

export type IngestionReads = ReturnType<typeof createIngestionReads>;
