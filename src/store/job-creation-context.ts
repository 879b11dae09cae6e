import type { DataSource } from 'typeorm';
import type { Capability } from '../core/execution.js';
import type { EvidenceProbeRef } from './entities/connected-repository.entity.js';
import { GLOBAL_SCOPE } from './execution-flags.js';
import { readJson } from './raw-values.js';

/** What creating a job needs to know of its repository and of the operator's pauses. */
export interface JobCreationContext {
  /** Semantic names of the repository's test values (never their values). */
  testValueNames: string[];
  /** Keys of the success criteria that have an evidence probe. */
  evidenceCriteria: string[];
  /** Capabilities paused for this organization, globally or for it alone. */
  paused: Set<Capability>;
}

/**
 * The repository (scoped by organization) and the pauses in one raw query: job creation reads both on every
 * request, and a round trip and the query builder cost more than the rows. Undefined when the organization has no
 * such repository.
 */
export async function readJobCreationContext(dataSource: DataSource, organizationId: string, repositoryId: string): Promise<JobCreationContext | undefined> {
  const rows = (await dataSource.query(
    `SELECT r.test_value_secret_refs AS refs, r.evidence_probe_refs AS probes,
            (SELECT GROUP_CONCAT(f.capability) FROM execution_flags f WHERE f.paused = 1 AND f.scope IN (?, ?)) AS paused
       FROM repositories r
      WHERE r.id = ? AND r.organization_id = ?`,
    [GLOBAL_SCOPE, organizationId, repositoryId, organizationId],
  )) as { refs: unknown; probes: unknown; paused: string | null }[];
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    testValueNames: Object.keys(readJson<Record<string, string>>(row.refs)),
    evidenceCriteria: Object.keys(readJson<Record<string, EvidenceProbeRef>>(row.probes)),
    paused: new Set((row.paused ?? '').split(',').filter(Boolean) as Capability[]),
  };
}
