import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import type { FindingDraft } from '../core/findings.js';
import { appendJobEvent } from '../jobs/job-events.js';
import { Artifact } from '../store/entities/artifact.entity.js';
import { Finding } from '../store/entities/finding.entity.js';

export interface ArtifactInput {
  kind: 'screenshot' | 'trace' | 'console_log' | 'network_log' | 'accessibility_snapshot';
  name: string;
  contentType: string;
  content: Buffer;
  stepIndex: number | null;
}

/**
 * Puts an artifact's bytes in storage and returns the row to insert with the step. Bytes go first: a row never
 * points at missing bytes. A step that dies after this leaves unreferenced bytes under the job's prefix, never a
 * visible artifact.
 */
export async function storeArtifact(storage: ArtifactStorage, organizationId: string, jobId: string, input: ArtifactInput): Promise<Artifact> {
  const id = randomUUID();
  const storageKey = `${organizationId}/${jobId}/${id}`;
  await storage.put(storageKey, input.content);
  return Object.assign(new Artifact(), {
    id,
    organizationId,
    jobId,
    kind: input.kind,
    name: input.name,
    contentType: input.contentType,
    sizeBytes: input.content.length,
    sha256: createHash('sha256').update(input.content).digest('hex'),
    storageKey,
    stepIndex: input.stepIndex,
  });
}

/** Inserts stored artifacts' rows, each with an `artifact.created` event. */
export async function recordArtifacts(manager: EntityManager, artifacts: readonly Artifact[]): Promise<void> {
  for (const artifact of artifacts) {
    await manager.insert(Artifact, artifact);
    await appendJobEvent(manager, artifact.jobId, 'artifact.created', {
      artifactId: artifact.id,
      kind: artifact.kind,
      name: artifact.name,
      sizeBytes: artifact.sizeBytes,
    });
  }
}

/** Inserts findings after the job's existing ones, each with a `finding.recorded` event. */
export async function recordFindings(
  manager: EntityManager,
  organizationId: string,
  jobId: string,
  drafts: readonly FindingDraft[],
  artifactIds: readonly string[],
): Promise<void> {
  const [{ next }] = (await manager.query(`SELECT COALESCE(MAX(position) + 1, 0) AS next FROM findings WHERE job_id = ?`, [jobId])) as {
    next: number | string;
  }[];
  let position = Number(next);
  for (const draft of drafts) {
    const id = randomUUID();
    await manager.insert(Finding, { id, organizationId, jobId, position: position++, ...draft, artifactIds: [...artifactIds] });
    await appendJobEvent(manager, jobId, 'finding.recorded', { findingId: id, kind: draft.kind, severity: draft.severity, title: draft.title });
  }
}
