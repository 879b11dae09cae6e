import type { FlowCoverage } from './ingestion-reads.js';

/** A repository's flows (their source files) and coverage links, as pull requests choose their checks by them. */
export interface StoredCoverage {
  flows: { key: string; name: string; files: string[] }[];
  links: { flowKey: string; checkId: string }[];
}

/**
 * What onboarding stored of a repository (`IngestionReads.repositoryCoverage`), as check selection takes it: null when
 * it has no flows yet (never onboarded, or onboarding found none), so that every check runs.
 */
export function selectionCoverageOf(flows: readonly FlowCoverage[]): StoredCoverage | null {
  if (flows.length === 0) return null;
  return {
    flows: flows.map(({ flow }) => ({ key: flow.key, name: flow.name, files: [...flow.files] })),
    links: flows.flatMap(({ flow, links }) => links.map((link) => ({ flowKey: flow.key, checkId: link.checkId }))),
  };
}
