import type { EntityManager } from 'typeorm';
import { ErrorCode, operationalError } from '../../core/errors.js';
import type { DiscoveredFlow } from '../../onboarding/model.js';
import { RepositoryFlow } from '../../store/entities/repository-flow.entity.js';

/** The longest flow key the store holds (`repository_flows.flow_key`). */
export const MAX_FLOW_KEY = 200;

/**
 * Discovery's flows as the store takes them: keys present, unique and short enough. A discovery that broke that
 * contract fails the step with a coded error instead of storing half its flows.
 */
export function checkFlows(flows: DiscoveredFlow[]): void {
  const seen = new Set<string>();
  for (const flow of flows) {
    if (typeof flow.key !== 'string' || flow.key.length === 0 || flow.key.length > MAX_FLOW_KEY || seen.has(flow.key)) {
      throw operationalError(ErrorCode.OnboardingOutputInvalid, `Discovery returned a flow with an empty, duplicate or too long key (${String(flow.key).slice(0, 40)})`);
    }
    seen.add(flow.key);
  }
}

/** The repository's stored flows, most valuable first (then by key, so the order is the same everywhere). */
export async function storedFlows(manager: EntityManager, repositoryId: string): Promise<DiscoveredFlow[]> {
  const rows = await manager.getRepository(RepositoryFlow).findBy({ repositoryId });
  return rows.map((row) => row.flow as DiscoveredFlow).sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
