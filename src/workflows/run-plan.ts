import type { Locator } from 'playwright';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import type { AccessibilityAudit } from '../browser/accessibility.js';
import type { BrowserSession } from '../browser/browser-pool.js';
import type { ModelGrounding } from '../browser/model-ground.js';
import type { SideEffectGuard } from '../browser/side-effect-guard.js';
import { appearingTextsAfter } from '../browser/appearing-texts.js';
import { dialogStepsAfter, watchDialogs, type DialogWatch } from '../browser/dialogs.js';
import { observeGoneTargets, watchGoneTargets } from '../browser/gone-anchors.js';
import { describeLocator, locatorOf } from '../browser/locate.js';
import { recordPageVisit, startPageHistory } from '../browser/page-history.js';
import { describeElement } from '../core/healing.js';
import { runStepWithHealing, type HealingStepResult } from '../browser/heal.js';
import type { StepResult } from '../browser/step-runner.js';
import type { CompiledStep } from '../core/check.js';
import { boundedComparison, type FindingDraft } from '../core/findings.js';
import type { ProbeClient } from '../probes/probe-client.js';
import type { Artifact } from '../store/entities/artifact.entity.js';
import type { Job } from '../store/entities/job.entity.js';
import type { RunRecorder, RunWrites } from './run-recorder.js';
import { FIRST_RUN_EVIDENCE, keepsStepScreenshot, type EvidencePolicy } from './qa-run/evidence.js';
import { storeArtifact } from './run-records.js';

/** Where a probe step's call goes: the URL and token read from the secrets its criterion's refs name. */
export type ProbeTarget = { url: string; token: string } | { missing: string };

export interface PlanRunInput {
  job: Job;
  session: BrowserSession;
  steps: readonly CompiledStep[];
  /** Test values by semantic name (secret values; only the runner and the scrubber see them). */
  testValue(name: string): string | undefined;
  probeTarget(criterion: string): ProbeTarget;
  /** Audits each page the run visits once (axe, serious and critical only); its findings are warnings. */
  accessibility: AccessibilityAudit;
  /** Secret values: masked wherever they show as text in a screenshot ("Signed in as …"). */
  secretValues: readonly string[];
  /** Stops a click or key press whose target names a side effect no answer allowed (`side_effect_blocked`). */
  sideEffects: SideEffectGuard;
  /** Aborted when the job is cancelled or runs out of time: the run stops where it is and writes no more steps. */
  stop: AbortSignal;
  /** Which steps keep a screenshot (qa-run/evidence.ts); every step when not given. */
  evidence?: EvidencePolicy;
  /** A model planner's questions about the page (a natural-language run with one configured); its calls are recorded. */
  model?: ModelGrounding;
  /** What must be done before the first step acts (the trace starting): awaited beside the first step's `step.started`. */
  ready?: Promise<unknown>;
}

export interface PlanRunDeps {
  /** The run's one writer: it scrubs what is written and fences out a stale attempt. */
  recorder: RunRecorder;
  artifacts: ArtifactStorage;
  probes: ProbeClient;
  stepTimeoutMs: number;
}

export interface PlanRunResult {
  /** Every step ran and held. */
  passed: boolean;
  /** Set when `stop` ended the run early (its reason); the step in flight then has no result. */
  stopped?: unknown;
  /** The steps as they ran, with the locators they resolved to (what a compiled check keeps). */
  resolved: CompiledStep[];
  findings: number;
  /** Indexes of steps that passed only by healing (a replay): their `resolved` entries carry the proposed locator. */
  healed: number[];
}

/**
 * Runs a plan's steps in order in one browser session and writes each step's history as it happens:
 * `step.started`, then (with its screenshot, and on failure a finding and the page's accessibility snapshot)
 * `step.passed` or `step.failed`. The first failed step ends the run, unless the check's disputes hold its failure
 * (then its finding is a warning, its `step.failed` says `disputed: true`, and the next step runs). The recorder
 * scrubs every text written; screenshots mask the fields a secret was typed into, and accessibility snapshots are
 * scrubbed before they are stored.
 */
export async function runPlan(deps: PlanRunDeps, input: PlanRunInput): Promise<PlanRunResult> {
  // The page's dialogs are answered by one listener for the whole run, as the plan's dialog steps say.
  const dialogs = watchDialogs(input.session.page);
  try {
    return await runSteps(deps, input, dialogs);
  } finally {
    dialogs.dispose();
  }
}

async function runSteps(deps: PlanRunDeps, input: PlanRunInput, dialogs: DialogWatch): Promise<PlanRunResult> {
  const { job, session } = input;
  const { recorder } = deps;
  // Fields a secret was typed into, and any element showing a secret as text, are masked in screenshots.
  const secretFields: Locator[] = input.secretValues.map((value) => session.page.getByText(value, { exact: false }));
  const resolved: CompiledStep[] = [];
  const healed: number[] = [];
  let findings = 0;

  // A step's `step.started` is committed before it acts: a run resumed after a crash must see that the step may have
  // happened. The first goes alone; each next one in the commit that ends the step before it (one commit a step).
  const announce = (writes: RunWrites, index: number) => {
    const { step } = input.steps[index]!;
    return writes.event('step.started', { index, action: step.action, description: step.description, attempt: recorder.attempt });
  };
  if (input.steps.length > 0 && !input.stop.aborted) {
    input.accessibility.prepare(session.page);
    await Promise.all([recorder.commit((writes) => announce(writes, 0)), input.ready]);
  }
  await input.ready;

  const planned = input.steps.map((compiled) => compiled.step);
  // "X is gone" is judged only for an X the run saw after an earlier step (browser/gone-anchors.ts).
  watchGoneTargets(session.page, planned);
  // A page said by how it was reached ("back on the product list") is judged by where the page has been.
  startPageHistory(session.page);
  for (const [index, compiled] of input.steps.entries()) {
    const { step } = compiled;
    if (input.stop.aborted) return { passed: false, stopped: input.stop.reason as unknown, resolved, findings, healed };
    const started = performance.now();
    const result: HealingStepResult & { evidence?: string } =
      step.action === 'probe'
        ? await runProbe(deps.probes, step.criterion, input, job)
        : await runStepWithHealing(
            session.page,
            compiled,
            {
              baseUrl: job.baseUrl,
              timeoutMs: deps.stepTimeoutMs,
              testValue: input.testValue,
              locator: compiled.locator,
              ...(compiled.toLocator ? { toLocator: compiled.toLocator } : {}),
              allowlist: session.allowlist,
              sideEffects: input.sideEffects,
              ...(input.model === undefined ? {} : { model: input.model }),
              dialogs,
              opensDialogs: dialogStepsAfter(planned, index),
              revealsTexts: appearingTextsAfter(planned, index),
            },
            // A natural-language run records what each target looked like; a replay heals with that record.
            // Nothing the scrubber would change is stored in a check (it keeps no secret value).
            { record: job.plan !== null, storable: (value) => JSON.stringify(recorder.scrubber.value(value)) === JSON.stringify(value) },
          );
    const ms = Math.round(performance.now() - started);
    const modelCalls = input.model?.session.takeCalls() ?? [];
    // Stopped mid-step (the session was closed under it): its outcome says nothing about the page.
    if (input.stop.aborted) return { passed: false, stopped: input.stop.reason as unknown, resolved, findings, healed };
    if (result.status === 'passed') {
      recordPageVisit(session.page, step);
      await observeGoneTargets(session.page, index, step);
    }
    if (result.status === 'passed' && step.action === 'fill' && step.value.kind === 'testValue' && result.locator) {
      secretFields.push(locatorOf(session.page, result.locator));
    }

    // A healed step keeps its screenshot as a failed one does: a person looks at it before accepting the proposal.
    const needsPicture = result.status === 'failed' || result.healed !== undefined;
    const screenshot = keepsStepScreenshot(input.evidence ?? FIRST_RUN_EVIDENCE, needsPicture)
      ? await session.page.screenshot({ type: 'png', timeout: 10_000, mask: secretFields, animations: 'disabled' }).catch(() => undefined)
      : undefined;
    // Artifact files are written while the browser does the rest of the step (snapshot, audit).
    const storing: Promise<Artifact>[] = [];
    if (screenshot) {
      storing.push(storeArtifact(deps.artifacts, job.organizationId, job.id, { kind: 'screenshot', name: `step-${index + 1}.png`, contentType: 'image/png', content: screenshot, stepIndex: index }));
    }
    if (result.status === 'failed') {
      const snapshot = await session.page.locator('body').ariaSnapshot({ timeout: 5_000 }).catch(() => undefined);
      if (snapshot !== undefined) {
        storing.push(storeArtifact(deps.artifacts, job.organizationId, job.id, {
          kind: 'accessibility_snapshot', name: `step-${index + 1}-accessibility.yaml`, contentType: 'text/yaml; charset=utf-8', content: Buffer.from(recorder.scrubber.text(snapshot)), stepIndex: index,
        }));
      }
    }
    for (const pending of storing) pending.catch(() => undefined); // awaited below, where a failure is thrown
    const finding: FindingDraft | undefined =
      result.status === 'failed'
        ? recorder.settle({
            kind: result.kind,
            severity: 'error',
            stepIndex: index,
            title: `Step ${index + 1} failed: ${step.description}`,
            detail: result.message,
            // A failed expectation: what it expected and what the page showed (this step's screenshot shows it too).
            ...(result.comparison ? { expected: result.comparison.expected, actual: result.comparison.actual } : {}),
          })
        : undefined;
    const healedFinding = result.status === 'passed' && result.healed ? recorder.settle(healedFindingOf(index, step.description, result.healed)) : undefined;
    // A failure the check's disputes hold ("not a bug") is recorded as a warning, and the run goes on past it.
    const held = finding === undefined || finding.severity !== 'error';
    // The page this step led to, audited once per run (its HTML snippets can show secrets: the recorder scrubs them).
    // Not after a navigation that failed or was blocked: the page then shows the browser's or the proxy's error page.
    const audited = step.action !== 'probe' && !(result.status === 'failed' && (result.kind === 'navigation_failed' || result.kind === 'navigation_blocked'));
    const accessibility = audited ? await input.accessibility.auditNewPage(session.page, index) : [];
    const stored = await Promise.all(storing);
    const next = held && index + 1 < input.steps.length && !input.stop.aborted ? index + 1 : undefined;
    await recorder.commit(async (writes) => {
      for (const call of modelCalls) await writes.event('planner.called', { ...call, stepIndex: index });
      await writes.artifacts(stored);
      if (finding) await writes.findings([finding], stored.map((artifact) => artifact.id));
      if (healedFinding) await writes.findings([healedFinding], stored.map((artifact) => artifact.id));
      if (accessibility.length > 0) await writes.findings(accessibility, stored.map((artifact) => artifact.id));
      await writes.event(result.status === 'passed' ? 'step.passed' : 'step.failed', {
        index,
        ms,
        ...(result.locator ? { locator: result.locator } : {}),
        ...(result.toLocator ? { toLocator: result.toLocator } : {}),
        ...(result.healed ? { healed: { from: result.healed.from, to: result.healed.to } } : {}),
        ...(result.model !== undefined ? { model: result.model } : {}),
        ...(result.status === 'failed' ? { kind: result.kind, message: result.message, ...(held ? { disputed: true } : {}) } : {}),
        // What a failed expectation compared, for whoever follows the stream (qa follow), as its finding keeps it.
        ...(result.status === 'failed' && result.comparison ? boundedComparison(result.comparison) : {}),
        ...(result.evidence !== undefined ? { evidence: result.evidence } : {}),
      });
      if (next !== undefined) await announce(writes, next);
    });
    if (finding) findings += 1;
    if (healedFinding) {
      findings += 1;
      healed.push(index);
    }
    findings += accessibility.length;
    resolved.push({
      step: result.status === 'passed' && result.ran !== undefined ? result.ran : step,
      ...(result.locator ? { locator: result.locator } : {}),
      ...(result.healing ? { healing: result.healing } : {}),
      ...(result.toLocator ? { toLocator: result.toLocator } : {}),
      ...(result.toHealing ? { toHealing: result.toHealing } : {}),
    });
    if (!held) return { passed: false, resolved, findings, healed };
  }
  return { passed: true, resolved, findings, healed };
}

/** A probe step: the evidence probe of its criterion; only `passed` and `evidence` come back. */
async function runProbe(probes: ProbeClient, criterion: string, input: PlanRunInput, job: Job): Promise<StepResult & { evidence?: string }> {
  const target = input.probeTarget(criterion);
  if ('missing' in target) return { status: 'failed', kind: 'probe_failed', message: target.missing };
  const allowedHosts = [new URL(job.baseUrl).hostname, ...job.networkAllowlist];
  const result = await probes.call({ url: target.url, token: target.token, allowedHosts });
  if (!result.ok) return { status: 'failed', kind: 'probe_failed', message: `The evidence probe for "${criterion}" could not be used: ${result.reason}` };
  const evidence = result.evidence;
  if (!result.passed) return { status: 'failed', kind: 'assertion_failed', message: `The evidence probe for "${criterion}" says it does not hold: ${evidence}`, evidence };
  return { status: 'passed', evidence };
}

/**
 * A step that passed only by healing: a warning (the run passes) that says what changed and on what evidence. The
 * check keeps replaying its accepted version until a person accepts the version this proposes.
 */
function healedFindingOf(index: number, description: string, healed: NonNullable<HealingStepResult['healed']>): FindingDraft {
  return {
    kind: 'check.healed',
    severity: 'warning',
    stepIndex: index,
    title: `Step ${index + 1} healed: ${description}`,
    detail:
      `The stored locator${healed.which === 'to' ? ' of the drop target' : ''} (${describeLocator(healed.from)}) finds nothing now. ${healed.agreeing.join(', ')} agree on ${describeElement(healed.element)}, ` +
      `which still looks like the recorded element, so the step ran with ${describeLocator(healed.to)}. ` +
      'A new version of the check with that locator is proposed; replays keep the accepted version until a person accepts it.',
  };
}
