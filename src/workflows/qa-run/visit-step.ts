import { createHostAllowlist } from '../../browser/host-allowlist.js';
import { findingsFromObservations } from '../../browser/observation-findings.js';
import { startTrace } from '../../browser/trace.js';
import { verdictOf, type FindingDraft } from '../../core/findings.js';
import type { QueueRunContext } from '../../queue/index.js';
import type { Job } from '../../store/entities/job.entity.js';
import { openRunSession } from '../browser-run-session.js';
import type { StepOutcome } from '../checkpoints.js';
import type { RunWrites } from '../run-recorder.js';
import { storeArtifact } from '../run-records.js';
import type { RunSecrets } from '../test-values.js';
import { navigate } from './navigate.js';
import { keepTrace } from './trace.js';
import type { QaRunDeps, VisitResult } from './types.js';

/** The `visit` step (a job with no steps): opens the target, lets it settle, takes a screenshot, and turns what the page did into findings. */
export async function visitStep(deps: QaRunDeps, job: Job, secrets: RunSecrets, context: QueueRunContext): Promise<StepOutcome<VisitResult>> {
  const allowlist = createHostAllowlist(job.baseUrl, job.networkAllowlist);
  const { session, close } = await openRunSession({ browsers: deps.browsers, allowlist, shutdown: context.signal });
  try {
    await startTrace(session.context);
    const started = performance.now();
    const navigation = await navigate(session, job.baseUrl);
    if (context.signal.aborted) throw context.signal.reason;
    const screenshot = await session.page
      .screenshot({ type: 'png', fullPage: true, timeout: 10_000, mask: secrets.values.map((value) => session.page.getByText(value)) })
      .catch(() => undefined);
    const drafts: FindingDraft[] = [...navigation.findings, ...findingsFromObservations(session.observations, null)];
    const artifacts = [
      ...(screenshot
        ? [await storeArtifact(deps.artifacts, job.organizationId, job.id, { kind: 'screenshot', name: 'screenshot-page.png', contentType: 'image/png', content: screenshot, stepIndex: null })]
        : []),
      ...(await keepTrace(deps.artifacts, job, session, secrets.scrubber, context)),
    ];
    const verdict = verdictOf(drafts);
    const result: VisitResult = { verdict, findings: drafts.length, errors: drafts.filter((draft) => draft.severity === 'error').length };
    return {
      result,
      async record(writes: RunWrites) {
        await writes.event('page.visited', {
          url: navigation.url,
          status: navigation.status,
          title: navigation.title,
          ms: Math.round(performance.now() - started),
          allowedHosts: allowlist.hosts,
        });
        await writes.artifacts(artifacts);
        await writes.findings(drafts, artifacts.map((artifact) => artifact.id));
      },
    };
  } finally {
    await close();
  }
}
