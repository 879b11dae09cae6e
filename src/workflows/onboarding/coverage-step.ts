import type { EntityManager } from 'typeorm';
import { Check } from '../../store/entities/check.entity.js';
import { CheckVersion } from '../../store/entities/check-version.entity.js';
import { CoverageLinkRecord } from '../../store/entities/coverage-link.entity.js';
import { beginStep } from './begin-step.js';
import { storedFlows } from './flow-rows.js';
import type { CoverageCheck } from './ports.js';
import type { StepContext } from './types.js';

/** The repository's checks as coverage reads them: each with its latest compiled version. */
async function coverageChecks(manager: EntityManager, repositoryId: string): Promise<CoverageCheck[]> {
  const checks = await manager.getRepository(Check).find({ where: { repositoryId }, order: { createdAt: 'ASC', id: 'ASC' } });
  const versions = checks.length === 0 ? [] : await manager.getRepository(CheckVersion).createQueryBuilder('v').where('v.check_id IN (:...ids)', { ids: checks.map((c) => c.id) }).getMany();
  const latest = new Map<string, CheckVersion>();
  for (const version of versions) {
    const known = latest.get(version.checkId);
    if (!known || version.version > known.version) latest.set(version.checkId, version);
  }
  return checks.map((check) => ({ checkId: check.id, task: check.task, version: latest.get(check.id)?.version ?? 0, compiled: latest.get(check.id)?.compiled ?? null }));
}

/** How many of the flows have at least one link. */
export async function coveredFlowCount(manager: EntityManager, repositoryId: string, flowKeys: readonly string[]): Promise<number> {
  const links = await manager.getRepository(CoverageLinkRecord).findBy({ repositoryId });
  const known = new Set(flowKeys);
  return new Set(links.map((link) => link.flowKey).filter((key) => known.has(key))).size;
}

/**
 * Links the repository's flows to the checks that exercise them. The links this step made before are replaced; the
 * links a catalog build made (`built`) stay: that check was compiled for that flow.
 */
export async function coverageStep(context: StepContext): Promise<void> {
  const { deps, recorder, repository, now } = context;
  await beginStep(context, 'coverage');
  const manager = deps.dataSource.manager;
  const flows = await storedFlows(manager, repository.id);
  const checks = await coverageChecks(manager, repository.id);
  const flowKeys = new Set(flows.map((flow) => flow.key));
  const checkIds = new Set(checks.map((check) => check.checkId));
  const links = deps.ports.linkCoverage(flows, checks).filter((link) => flowKeys.has(link.flowKey) && checkIds.has(link.checkId));
  await recorder.commit(async (writes) => {
    await writes.manager.delete(CoverageLinkRecord, { repositoryId: repository.id, source: 'linked' });
    for (const link of links) {
      await writes.manager.upsert(
        CoverageLinkRecord,
        { repositoryId: repository.id, flowKey: link.flowKey, checkId: link.checkId, organizationId: repository.organizationId, reason: link.reason.slice(0, 64), source: 'linked', createdAt: now() },
        ['repositoryId', 'flowKey', 'checkId'],
      );
    }
    const coveredFlows = await coveredFlowCount(writes.manager, repository.id, [...flowKeys]);
    await writes.update({ counts: { coveredFlows } });
    await writes.event('step.finished', { step: 'coverage', checks: checks.length, links: links.length, coveredFlows, flows: flows.length });
    await writes.checkpoint('coverage', { links: links.length, coveredFlows });
  });
}
