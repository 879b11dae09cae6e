import type { ArtifactStorage } from '../../artifacts/artifact-storage.js';
import type { BrowserSession } from '../../browser/browser-pool.js';
import { stopTrace } from '../../browser/trace.js';
import type { TraceScrubber } from '../../browser/trace-secrets.js';
import type { CompiledStep } from '../../core/check.js';
import type { QueueRunContext } from '../../queue/index.js';
import type { Artifact } from '../../store/entities/artifact.entity.js';
import type { Job } from '../../store/entities/job.entity.js';
import { storeArtifact } from '../run-records.js';
import type { RunSecrets } from '../test-values.js';

/**
 * The run's Playwright trace, scrubbed of every secret (pictures of the page are dropped when any secret was in
 * it), as a stored artifact. A trace that cannot be kept safely is left out, never kept unscrubbed. The bytes are
 * scrubbed here: the run recorder scrubs what goes to the database, not what goes to artifact storage.
 */
export async function keepTrace(artifacts: ArtifactStorage, job: Job, session: BrowserSession, scrubber: TraceScrubber, context: QueueRunContext): Promise<Artifact[]> {
  const trace = await stopTrace(session.context, scrubber).catch((error: unknown) => {
    context.logger.warn({ err: error }, 'no trace kept for this run');
    return undefined;
  });
  if (!trace) return [];
  return [await storeArtifact(artifacts, job.organizationId, job.id, { kind: 'trace', name: 'trace.zip', contentType: 'application/zip', content: trace, stepIndex: null })];
}

/** Stops the run's trace and keeps nothing of it (a passing replay's; qa-run/evidence.ts). */
export async function discardTrace(session: BrowserSession): Promise<void> {
  await session.context.tracing.stop().catch(() => undefined);
}

/**
 * Whether the plan types a test value the trace scrubber masks. Its trace then loses every picture when it is
 * stopped (a typed secret is always in the trace's text), so the run records no screencast in the first place.
 */
export function typesSecret(planned: readonly CompiledStep[], secrets: RunSecrets): boolean {
  return planned.some(({ step }) => {
    if ((step.action !== 'fill' && step.action !== 'select') || step.value.kind !== 'testValue') return false;
    const value = secrets.testValue(step.value.name);
    return value !== undefined && secrets.scrubber.text(value) !== value;
  });
}
