import { createHash, randomUUID } from 'node:crypto';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import { Artifact } from '../store/entities/artifact.entity.js';

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
