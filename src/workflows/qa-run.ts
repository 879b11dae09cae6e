import type { DataSource } from 'typeorm';
import { z } from 'zod';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import type { BrowserPool, BrowserSession } from '../browser/browser-pool.js';
import { EGRESS_HEADER } from '../browser/egress-proxy.js';
import { createAccessibilityAudit } from '../browser/accessibility.js';
import { createHostAllowlist } from '../browser/host-allowlist.js';
import { startTrace, stopTrace } from '../browser/trace.js';
import type { TraceScrubber } from '../browser/trace-secrets.js';
import type { Artifact } from '../store/entities/artifact.entity.js';
import { findingsFromObservations } from '../browser/observation-findings.js';
import { AppError, userError } from '../core/errors.js';
import { boundedText, verdictOf, type FindingDraft } from '../core/findings.js';
import { isRunnable, verdictEvent } from '../core/job-lifecycle.js';
import { createScrubber } from '../core/secrets.js';
import { defineQueueJob, failureKind, stageNow, type JobContext, type Queue, type QueueJobDefinition, type RetryPolicy } from '../queue/index.js';
import type { RunStarter } from '../jobs/job-service.js';
import { compiledCheckSchema, type CompiledCheck, type CompiledStep } from '../core/check.js';
import type { ProbeClient } from '../probes/probe-client.js';
import { CheckVersion } from '../store/entities/check-version.entity.js';
import { Check } from '../store/entities/check.entity.js';
import { ConnectedRepository, type EvidenceProbeRef } from '../store/entities/connected-repository.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { createRunRecorder, JobNoLongerRunnable, RunFencedOut, takeRunToken, type RunRecorder, type RunWrites } from './run-recorder.js';
import { runPlan } from './run-plan.js';
import { runSecrets, type ReadSecret, type RunSecrets } from './test-values.js';
import { createStepRunner, type StepOutcome } from './checkpoints.js';
import { storeArtifact } from './run-records.js';

/** The queue job that runs one QA job in a browser. */
export const QA_RUN_JOB = 'qa-run';

export const qaRunPayload = z.object({ jobId: z.string().uuid() });

/**
 * Starts runnable jobs' workflows for the job service: the queue job is written in the job's own transaction (one
 * commit), its id is the job's workflow id, and workers are told after the commit.
 */
export function qaRunStarter(queue: Queue): RunStarter {
  return {
    async stage(jobId) {
      const staged = stageNow(queue, { name: QA_RUN_JOB, payload: qaRunPayload }, { jobId });
      return { workflowId: staged.id, statement: staged.statement, announce: () => staged.announce() };
    },
  };
}

/** What the Playwright source of a compiled check is made from: names of secrets only, never values. */
export interface SourceInput {
  name: string;
  check: CompiledCheck;
  baseUrl: string;
  testValueSecretRefs: Record<string, string>;
  evidenceProbeRefs: Record<string, EvidenceProbeRef>;
}

/** A browser that will not start or a database that drops out is retried twice, then the job is errored. */
export const QA_RUN_RETRY: RetryPolicy = { baseDelayMs: 2_000, factor: 2, maxDelayMs: 30_000, maxRetries: 2, jitter: 0.2 };

export interface QaRunDeps {
  dataSource: DataSource;
  browsers: BrowserPool;
  artifacts: ArtifactStorage;
  probes: ProbeClient;
  /** Runtime secrets by environment variable name (test values, probe URLs and tokens). */
  readSecret: ReadSecret;
  /** How long one plan step waits for its target or expectation. */
  stepTimeoutMs: number;
  /** The Playwright test source of a compiled check (src/checks). */
  generateSource(input: SourceInput): string;
  /** A run that takes longer is stopped and fails with a `time_limit` finding. */
  timeLimitMs: number;
  /** How often a running job looks whether it was cancelled (default 1 s). */
  cancelPollMs?: number;
  /** How often a running step extends its queue lock; well within the queue's lock lifetime. */
  heartbeatMs: number;
  /** Called after a commit that added events to a job (an event feed in this process wakes its followers). */
  eventsWritten?: (jobId: string) => void;
  retry?: RetryPolicy;
}

/**
 * The QA-run workflow, first cut: start, visit the target in a fresh browser context behind the job's network
 * allowlist (a screenshot, console and page errors, failed and blocked requests), then finish passed or failed.
 * Each step is checkpointed with its events, so a run resumed by another worker repeats nothing already recorded.
 */
export function qaRunWorkflow(deps: QaRunDeps): QueueJobDefinition<typeof qaRunPayload> {
  const retry = deps.retry ?? QA_RUN_RETRY;
  return defineQueueJob({
    name: QA_RUN_JOB,
    payload: qaRunPayload,
    retry,
    async handle({ jobId }, context) {
      const job = await deps.dataSource.getRepository(Job).findOneBy({ id: jobId });
      if (!job) throw userError('job.not_found', `Job ${jobId} no longer exists`);
      if (!isRunnable(job.status)) {
        context.logger.info({ status: job.status }, 'job is not runnable any more; nothing to do');
        return;
      }
      let attempt: number | undefined;
      let recorder: RunRecorder | undefined;
      try {
        // The fencing token first: from here on an earlier attempt still running writes nothing more.
        attempt = await takeRunToken(deps.dataSource, job.id);
        const repository = await deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: job.repositoryId });
        const secrets = runSecrets(repository, deps.readSecret);
        recorder = createRunRecorder(deps.dataSource, { jobId: job.id, organizationId: job.organizationId, attempt, scrubber: secrets.scrubber, afterCommit: () => deps.eventsWritten?.(job.id) });
        await runSteps(deps, job, recorder, secrets, context);
      } catch (error) {
        if (stoppedQuietly(error, context)) return;
        // The same judgement as the queue's retry policy: operational failures are retried until the last attempt.
        const final = !context.signal.aborted && (failureKind(error) !== 'operational' || context.attempt > retry.maxRetries);
        // Before the secrets were read there are none to scrub.
        const writer = recorder ?? (attempt === undefined ? undefined : createRunRecorder(deps.dataSource, { jobId: job.id, organizationId: job.organizationId, attempt, scrubber: createScrubber([]), afterCommit: () => deps.eventsWritten?.(job.id) }));
        try {
          await recordFailure(writer, error, final, context);
        } catch (recordError) {
          if (stoppedQuietly(recordError, context)) return;
          throw recordError;
        }
        if (!final) throw error;
      }
    },
  });
}

/**
 * A fenced-out attempt (a newer one owns the run) and a job that was cancelled or ended under the run stop here:
 * nothing was written by the commit that found out, nothing more is, and the queue does not retry it.
 */
function stoppedQuietly(error: unknown, context: JobContext): boolean {
  if (error instanceof RunFencedOut) {
    context.logger.info({ token: error.token, current: error.current }, 'a newer attempt owns this run; stopped without writing');
    return true;
  }
  if (error instanceof JobNoLongerRunnable) {
    context.logger.info({ status: error.status }, 'job was cancelled or ended while it ran; stopped');
    return true;
  }
  return false;
}

async function runSteps(deps: QaRunDeps, job: Job, recorder: RunRecorder, secrets: RunSecrets, context: JobContext): Promise<void> {
  const steps = createStepRunner(deps.dataSource, recorder);
  // The attempt number is the run's fencing token: a worker that took over after another died (its lock expired)
  // is not a queue retry, so the queue's attempt count does not see it; the token does.
  const attempt = recorder.attempt;
  if ((await steps.completed('start')) !== undefined) {
    await recorder.commit((writes) => writes.event('job.resumed', { attempt }));
  }
  await steps.run('start', async () => ({
    result: {},
    async record(writes) {
      await writes.setStatus('running', { startedAt: new Date() });
      await writes.event('job.started', { baseUrl: job.baseUrl, attempt });
    },
  }));

  const planned = await plannedSteps(deps.dataSource, job);
  if (planned && attempt > 1 && (await steps.completed('run')) === undefined) await refuseRepeatedSideEffects(deps.dataSource, job, planned);
  const run = planned
    ? await steps.run('run', () => withHeartbeat(context, deps.heartbeatMs, () => runPlanned(deps, job, recorder, secrets, planned.steps, context)))
    : await steps.run('visit', () => withHeartbeat(context, deps.heartbeatMs, () => visitTarget(deps, job, secrets, context)));
  // Cancelled while it ran: the API has said so in the history; nothing more to write.
  if (run.verdict === 'cancelled') return;
  const verdict = run.verdict; // passed or failed from here on, also inside the step callbacks below

  // A passing natural-language run compiles its check: the next version, with every target as it resolved.
  if (verdict === 'passed' && job.plan !== null && job.checkId !== null && 'resolved' in run) {
    const plan = job.plan;
    const checkId = job.checkId;
    await steps.run('compile', async () => {
      const repository = await deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: job.repositoryId });
      const compiled: CompiledCheck = {
        steps: run.resolved as CompiledStep[],
        successCriteria: plan.successCriteria,
        ...(plan.sideEffects === true ? { sideEffects: true } : {}),
      };
      const source = deps.generateSource({
        name: job.task ?? 'Compiled check',
        check: compiled,
        baseUrl: job.baseUrl,
        testValueSecretRefs: repository.testValueSecretRefs,
        evidenceProbeRefs: repository.evidenceProbeRefs,
      });
      return {
        result: {},
        async record(writes) {
          const [{ latest }] = await writes.read<{ latest: number | string }>(`SELECT COALESCE(MAX(version), 0) AS latest FROM check_versions WHERE check_id = ?`, [checkId]);
          const version = Number(latest) + 1;
          await writes.insert(CheckVersion, { checkId, version, compiled, source, jobId: job.id });
          await writes.update(Check, { id: checkId }, { status: 'active', version });
          await writes.event('check.compiled', { checkId, version, steps: compiled.steps.length });
        },
      };
    });
  }

  await steps.run('finish', async () => ({
    result: {},
    async record(writes) {
      await writes.setStatus(verdict, { finishedAt: new Date() });
      await writes.event(verdictEvent(verdict), {
        findings: run.findings,
        errors: run.errors,
      });
    },
  }));
}

interface VisitResult {
  verdict: 'passed' | 'failed' | 'cancelled';
  findings: number;
  errors: number;
}

interface PlannedRunResult extends VisitResult {
  /** The steps as they ran, with their resolved locators (what the compile step keeps). */
  resolved: CompiledStep[];
}

/** The steps a job runs: its plan (a natural-language job) or its check's latest compiled version (a replay). */
async function plannedSteps(dataSource: DataSource, job: Job): Promise<Planned | null> {
  if (job.plan !== null) return { steps: job.plan.steps.map((step) => ({ step })), sideEffects: job.plan.sideEffects === true };
  if (job.checkId === null) return null;
  const latest = await dataSource.getRepository(CheckVersion).findOne({ where: { checkId: job.checkId }, order: { version: 'DESC' } });
  if (!latest) return null;
  const compiled = compiledCheckSchema.parse(latest.compiled);
  return { steps: compiled.steps, sideEffects: compiled.sideEffects === true };
}

interface Planned {
  steps: CompiledStep[];
  /** The task's answers allowed a real side effect (plan.ts `sideEffects`). */
  sideEffects: boolean;
}

/**
 * A run taken over from a worker that died, or retried after the browser failed, starts its steps again from the
 * first in a new browser. For a read-only check that is harmless. For one whose answers allowed a real side effect
 * (placing an order), the earlier attempt may already have caused it: once any step has started, the run is not
 * repeated behind the team's back; the job errors saying so, and a new job runs it again on purpose.
 */
async function refuseRepeatedSideEffects(dataSource: DataSource, job: Job, planned: Planned): Promise<void> {
  if (!planned.sideEffects) return;
  const started = await dataSource.getRepository(JobEvent).find({ select: { seq: true, data: true }, where: { jobId: job.id, type: 'step.started' }, order: { seq: 'DESC' }, take: 1 });
  if (started.length === 0) return;
  const last = started[0]!.data as { index?: number; description?: string };
  throw userError(
    'run.not_repeated',
    `The run stopped after step ${(last.index ?? 0) + 1} (${last.description ?? 'a step'}) had started, and this check may cause a real ` +
      'side effect (one the answers allowed), so it is not repeated automatically; start a new job to run it again',
  );
}

/**
 * Runs the steps in a fresh browser context on the target, then adds what the pages did (the same findings as the
 * first cut, scrubbed of secrets). The run passes when every step held and nothing it found is an error.
 */
async function runPlanned(deps: QaRunDeps, job: Job, recorder: RunRecorder, secrets: RunSecrets, planned: CompiledStep[], context: JobContext): Promise<StepOutcome<PlannedRunResult>> {
  const allowlist = createHostAllowlist(job.baseUrl, job.networkAllowlist);
  const session = await deps.browsers.openSession(allowlist);
  // One signal stops the run: a cancel (seen by polling the job), the time limit, or the worker shutting down.
  const stop = new AbortController();
  const stopWith = (reason: string) => () => stop.abort(reason);
  const onShutdown = stopWith('shutdown');
  context.signal.addEventListener('abort', onShutdown, { once: true });
  const limit = setTimeout(stopWith(STOP_TIME_LIMIT), deps.timeLimitMs);
  const watch = setInterval(() => {
    void deps.dataSource
      .getRepository(Job)
      .findOne({ select: { status: true }, where: { id: job.id } })
      .then((current) => current?.status === 'cancelled' && stop.abort(STOP_CANCELLED))
      .catch(() => undefined);
  }, deps.cancelPollMs ?? 1_000);
  stop.signal.addEventListener('abort', () => void session.close().catch(() => undefined), { once: true });
  try {
    // A plan that does not start by going somewhere starts on the target.
    await startTrace(session.context, { screenshots: !typesSecret(planned, secrets) });
    if (planned[0]?.step.action !== 'navigate') await navigate(session, job.baseUrl);
    const run = await runPlan(
      { recorder, artifacts: deps.artifacts, probes: deps.probes, stepTimeoutMs: deps.stepTimeoutMs },
      { job, session, steps: planned, testValue: secrets.testValue, probeTarget: secrets.probeTarget, secretValues: secrets.values, stop: stop.signal,
        // axe's legacy mode: no cross-origin frames, but about 3x faster (0.3–0.4 s a page instead of ~1 s).
        accessibility: createAccessibilityAudit({ crossOriginFrames: false }) },
    );
    if (context.signal.aborted) throw context.signal.reason;
    if (run.stopped === STOP_CANCELLED) {
      return { result: { verdict: 'cancelled', findings: 0, errors: 0, resolved: run.resolved }, record: async () => undefined };
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
    const verdict: 'passed' | 'failed' = run.passed && verdictOf(observed) === 'passed' ? 'passed' : 'failed';
    const traced = await keepTrace(deps, job, session, secrets.scrubber, context);
    const result: PlannedRunResult = {
      verdict,
      findings: run.findings + observed.length,
      errors: (run.passed ? 0 : 1) + observed.filter((finding) => finding.severity === 'error').length,
      resolved: run.resolved,
    };
    return {
      result,
      async record(writes: RunWrites) {
        await writes.artifacts(traced);
        await writes.findings(observed, traced.map((artifact) => artifact.id));
      },
    };
  } finally {
    clearTimeout(limit);
    clearInterval(watch);
    context.signal.removeEventListener('abort', onShutdown);
    await session.close().catch(() => undefined);
  }
}

/** Opens the target, lets it settle, takes a screenshot, and turns what the page did into findings. */
async function visitTarget(deps: QaRunDeps, job: Job, secrets: RunSecrets, context: JobContext) {
  const allowlist = createHostAllowlist(job.baseUrl, job.networkAllowlist);
  const session = await deps.browsers.openSession(allowlist);
  const closeOnAbort = () => void session.close().catch(() => undefined);
  context.signal.addEventListener('abort', closeOnAbort, { once: true });
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
      ...(await keepTrace(deps, job, session, secrets.scrubber, context)),
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
    context.signal.removeEventListener('abort', closeOnAbort);
    await session.close().catch(() => undefined);
  }
}

/**
 * The run's Playwright trace, scrubbed of every secret (pictures of the page are dropped when any secret was in
 * it), as a stored artifact. A trace that cannot be kept safely is left out, never kept unscrubbed.
 */
async function keepTrace(deps: QaRunDeps, job: Job, session: BrowserSession, scrubber: TraceScrubber, context: JobContext): Promise<Artifact[]> {
  const trace = await stopTrace(session.context, scrubber).catch((error: unknown) => {
    context.logger.warn({ err: error }, 'no trace kept for this run');
    return undefined;
  });
  if (!trace) return [];
  return [await storeArtifact(deps.artifacts, job.organizationId, job.id, { kind: 'trace', name: 'trace.zip', contentType: 'application/zip', content: trace, stepIndex: null })];
}

/**
 * Whether the plan types a test value the trace scrubber masks. Its trace then loses every picture when it is
 * stopped (a typed secret is always in the trace's text), so the run records no screencast in the first place.
 */
function typesSecret(planned: readonly CompiledStep[], secrets: RunSecrets): boolean {
  return planned.some(({ step }) => {
    if ((step.action !== 'fill' && step.action !== 'select') || step.value.kind !== 'testValue') return false;
    const value = secrets.testValue(step.value.name);
    return value !== undefined && secrets.scrubber.text(value) !== value;
  });
}

const STOP_CANCELLED = 'cancelled';
const STOP_TIME_LIMIT = 'time_limit';

/**
 * Goes to the target and waits for it to settle (network quiet for a moment, bounded), so late console errors and
 * requests are seen. A target that cannot be reached is a finding of the run, not a failure of the worker.
 */
async function navigate(session: BrowserSession, url: string): Promise<{ url: string; status: number | null; title: string; findings: FindingDraft[] }> {
  try {
    const response = await session.page.goto(url, { waitUntil: 'load' });
    await session.page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => undefined);
    // An answer of the egress proxy (a failed connection) is no status of the site's; the observer reports it.
    const status = response && response.headers()[EGRESS_HEADER] === undefined ? response.status() : null;
    return { url: session.page.url(), status, title: await session.page.title().catch(() => ''), findings: [] };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    // The observer saw the main document fail (no connection, an error status) and says why more exactly; this
    // finding covers what never produced a response or a network error (a timeout, an aborted navigation).
    const { failedRequests, failedResponses } = session.observations;
    const seen = failedRequests.some((request) => request.isMainDocument) || failedResponses.some((response) => response.isMainDocument);
    return {
      url,
      status: null,
      title: '',
      findings: seen
        ? []
        : [{ kind: 'navigation_failed', severity: 'error', stepIndex: null, title: boundedText(`Could not open ${url}`, 300), detail: boundedText(message, 4_000) }],
    };
  }
}

/** Keeps the queue lock while `work` runs: a long page load must not look like a dead worker. */
async function withHeartbeat<T>(context: JobContext, everyMs: number, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void context.touch().catch(() => undefined), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * A failed attempt: said in the history; a final one also ends the job as errored (with the reason). An attempt
 * that never took its fencing token (the database failed first) owns nothing to write to.
 */
async function recordFailure(recorder: RunRecorder | undefined, error: unknown, final: boolean, context: JobContext): Promise<void> {
  const reason = error instanceof AppError ? error.message : 'an unexpected error stopped the run';
  context.logger.warn({ err: error, final }, 'qa run attempt failed');
  if (!final && context.signal.aborted) return;
  try {
    if (!recorder) throw new Error('the attempt took no fencing token');
    await recorder.commit(async (writes) => {
      if (final) {
        await writes.setStatus('errored', { finishedAt: new Date() });
        await writes.event('job.errored', { reason, attempt: context.attempt });
      } else {
        await writes.event('run.retrying', { reason, attempt: context.attempt });
      }
    });
  } catch (recordError) {
    if (recordError instanceof RunFencedOut || recordError instanceof JobNoLongerRunnable) throw recordError;
    // The database may be what failed; the queue's retry still stands, and the next attempt writes its own events.
    context.logger.error({ err: recordError }, 'could not record the failed attempt');
    if (final) throw recordError;
  }
}
