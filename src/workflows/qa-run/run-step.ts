import { createAccessibilityAudit, type AccessibilityAuditOptions } from '../../browser/accessibility.js';
import { createHostAllowlist } from '../../browser/host-allowlist.js';
import { findingsFromObservations } from '../../browser/observation-findings.js';
import { startTrace } from '../../browser/trace.js';
import type { ModelGrounding } from '../../browser/model-ground.js';
import { verdictOf } from '../../core/findings.js';
import { testValuesOf } from '../../core/plan.js';
import { kindsNamedByLabel } from '../../planner/side-effect-floor.js';
import { Job } from '../../store/entities/job.entity.js';
import type { QueueRunContext } from '../../queue/index.js';
import { openRunSession, STOP_CANCELLED, STOP_TIME_LIMIT } from '../browser-run-session.js';
import type { StepOutcome } from '../checkpoints.js';
import { runPlan } from '../run-plan.js';
import type { RunRecorder, RunWrites } from '../run-recorder.js';
import type { RunSecrets } from '../test-values.js';
import { navigate } from './navigate.js';
import { evidencePolicyOf } from './evidence.js';
import type { Planned } from './planned-steps.js';
import { discardTrace, keepTrace, typesSecret } from './trace.js';
import type { PlannedRunResult, QaRunDeps } from './types.js';

/**
 * The `run` step: runs the steps in a fresh browser context on the target, then adds what the pages did (console
 * and page errors, failed and blocked requests). The run passes when every step held and nothing it found is an
 * error. A cancel, the time limit or the worker's shutdown stops it where it is.
 *
 * A run whose trace is discarded hands the context's closing to `afterwards` instead of waiting for it: the step's
 * commit and the job's verdict need nothing more of the browser, and are written while it closes (bench:runs: about
 * 10 ms of a replay's 25 ms from its last step to its verdict). The workflow waits for it before the job's attempt ends.
 */
export async function runPlannedStep(
  deps: QaRunDeps,
  job: Job,
  recorder: RunRecorder,
  secrets: RunSecrets,
  { steps: planned, allowedSideEffects, version }: Planned,
  context: QueueRunContext,
  afterwards: (closing: Promise<void>) => void,
): Promise<StepOutcome<PlannedRunResult>> {
  const { session, stop, close } = await openRunSession({
    browsers: deps.browsers,
    allowlist: createHostAllowlist(job.baseUrl, job.networkAllowlist),
    shutdown: context.signal,
    timeLimitMs: deps.timeLimitMs,
    cancelPollMs: deps.cancelPollMs,
    cancelled: async () => (await deps.dataSource.getRepository(Job).findOne({ select: { status: true }, where: { id: job.id } }))?.status === 'cancelled',
  });
  const evidence = evidencePolicyOf(job);
  const model = pageSteps(deps, job, secrets);
  let closing: Promise<void> | undefined;
  try {
    const tracing = startTrace(session.context, { screenshots: evidence.traceScreencast && !typesSecret(planned, secrets), snapshots: evidence.traceSnapshots });
    tracing.catch(() => undefined); // awaited below
    // A plan that does not start by going somewhere starts on the target.
    // A first step that looks for a page by name looks for it from the target too.
    const first = planned[0]?.step;
    if (first?.action !== 'navigate' || first.page !== undefined) {
      await tracing;
      await navigate(session, job.baseUrl);
    }
    const run = await runPlan(
      { recorder, artifacts: deps.artifacts, probes: deps.probes, stepTimeoutMs: deps.stepTimeoutMs },
      { job, session, steps: planned, testValue: secrets.testValue, probeTarget: secrets.probeTarget, secretValues: secrets.values, stop,
        // The planner's own policy reads what a click's target is called (side-effect-guard.ts).
        sideEffects: { kindsNamedBy: kindsNamedByLabel, allowed: allowedSideEffects },
        // axe's legacy mode: no cross-origin frames, but about 3x faster (0.3–0.4 s a page instead of ~1 s).
        accessibility: createAccessibilityAudit({ crossOriginFrames: false, ...replayMemory(deps, job, version) }), evidence, ready: tracing,
        ...(model === undefined ? {} : { model }) },
    );
    if (context.signal.aborted) throw context.signal.reason;
    if (run.stopped === STOP_CANCELLED) {
      return { result: { verdict: 'cancelled', findings: 0, errors: 0, resolved: run.resolved, healed: [] }, record: async () => undefined };
    }
    const observed = findingsFromObservations(session.observations, null);
    if (run.stopped === STOP_TIME_LIMIT) {
      observed.unshift({
        kind: 'time_limit',
        severity: 'error',
        stepIndex: run.resolved.length,
        title: `The run took longer than its time limit (${Math.round(deps.timeLimitMs / 1000)} s) and was stopped`,
        detail: `It stopped during step ${run.resolved.length + 1} of ${planned.length}. Raise RUN_TIME_LIMIT_MS if the check needs longer.`,
      });
    }
    const settled = observed.map((draft) => recorder.settle(draft));
    const verdict: 'passed' | 'failed' = run.passed && verdictOf(settled) === 'passed' ? 'passed' : 'failed';
    const keep = evidence.trace === 'always' || verdict === 'failed';
    const traced = keep ? await keepTrace(deps.artifacts, job, session, secrets.scrubber, context) : [];
    if (!keep) afterwards((closing = discardTrace(session).then(close)));
    const result: PlannedRunResult = {
      verdict,
      findings: run.findings + settled.length,
      errors: (run.passed ? 0 : 1) + settled.filter((finding) => finding.severity === 'error').length,
      resolved: run.resolved,
      healed: run.healed,
    };
    return {
      result,
      async record(writes: RunWrites) {
        await writes.artifacts(traced);
        await writes.findings(settled, traced.map((artifact) => artifact.id));
      },
    };
  } finally {
    if (closing === undefined) await close();
  }
}

/**
 * A natural-language run's questions to a model planner about the page, when one is configured: the task and every
 * text it is shown are masked with the run's scrubber. A replay runs its compiled locators and never asks.
 */
function pageSteps(deps: QaRunDeps, job: Job, secrets: RunSecrets): ModelGrounding | undefined {
  if (job.plan === null || deps.planner?.openPageSteps === undefined) return undefined;
  const mask = (text: string) => secrets.scrubber.text(text);
  const session = deps.planner.openPageSteps({ task: mask(job.task ?? ''), testValueNames: testValuesOf(job.plan) });
  return { session, mask };
}

/**
 * A replay's audits are remembered under its check and version, so the next replay of that version skips a page
 * that did not change. A first run is audited in full: a person reviews everything it found.
 */
function replayMemory(deps: QaRunDeps, job: Job, version: number | undefined): Pick<AccessibilityAuditOptions, 'memory'> {
  if (!deps.accessibilityMemory || job.checkId === null || version === undefined) return {};
  return { memory: { store: deps.accessibilityMemory, scope: `${job.checkId}@${version}` } };
}
