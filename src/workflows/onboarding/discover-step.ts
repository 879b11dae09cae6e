import { In, Not } from 'typeorm';
import { ErrorCode, operationalError } from '../../core/errors.js';
import type { CrawledPage, RepositoryIndex } from '../../onboarding/model.js';
import { CoverageLinkRecord } from '../../store/entities/coverage-link.entity.js';
import { RepositoryFlow } from '../../store/entities/repository-flow.entity.js';
import { RepositoryIndexRecord } from '../../store/entities/repository-index.entity.js';
import { beginStep } from './begin-step.js';
import { checkFlows } from './flow-rows.js';
import type { StepContext } from './types.js';

/**
 * Crawls `baseUrl` (its own checkpoint, `crawl`: a resumed discovery does not crawl again), then joins the crawl with
 * the index into flows. The repository's flows are replaced as one: flows no longer found go, with their coverage links.
 */
export async function discoverStep(context: StepContext): Promise<void> {
  const { deps, recorder, repository, signal, now } = context;
  await beginStep(context, 'discover');
  const stored = await deps.dataSource.getRepository(RepositoryIndexRecord).findOneBy({ repositoryId: repository.id });
  if (!stored || stored.ingestionRunId !== context.ingestionRunId) {
    throw operationalError(ErrorCode.OnboardingStepFailed, "The repository's index was replaced by another ingestion; start a new one");
  }
  let pages = ((await recorder.completed('crawl')) as { pages: CrawledPage[] } | undefined)?.pages;
  if (pages === undefined) {
    const crawled = await deps.ports.crawl({ repository, index: stored.content as RepositoryIndex, signal });
    await recorder.commit(async (writes) => {
      await writes.update({ counts: { pages: crawled.length } });
      await writes.event('crawl.finished', { pages: crawled.length });
      await writes.checkpoint('crawl', { pages: crawled });
    });
    pages = crawled;
  }
  const crawledPages = pages;
  const flows = await deps.ports.discover({ repository, index: stored.content as RepositoryIndex, pages: crawledPages, signal });
  checkFlows(flows);
  const keys = flows.map((flow) => flow.key);
  const edgeCases = flows.reduce((sum, flow) => sum + flow.edgeCases.length, 0);
  const byOrigin = (origin: string) => flows.filter((flow) => flow.origin === origin).length;
  await recorder.commit(async (writes) => {
    const { manager } = writes;
    const gone = keys.length === 0 ? { repositoryId: repository.id } : { repositoryId: repository.id, flowKey: Not(In(keys)) };
    await manager.delete(CoverageLinkRecord, gone);
    await manager.delete(RepositoryFlow, gone);
    for (const flow of flows) {
      await manager.upsert(
        RepositoryFlow,
        { repositoryId: repository.id, flowKey: flow.key, organizationId: repository.organizationId, ingestionRunId: context.ingestionRunId, flow, updatedAt: now() },
        ['repositoryId', 'flowKey'],
      );
    }
    await writes.update({ counts: { flows: flows.length, edgeCases } });
    await writes.event('step.finished', { step: 'discover', flows: flows.length, edgeCases, fromSource: byOrigin('source'), fromCrawl: byOrigin('crawl'), fromBoth: byOrigin('both') });
    await writes.checkpoint('discover', { flows: flows.length, edgeCases });
  });
}
