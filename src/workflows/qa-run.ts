import { In, type DataSource, type EntityManager } from 'typeorm';
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
import { navigationBlockedFindings } from '../browser/navigation-guard.js';
import { AppError, userError } from '../core/errors.js';
import { boundedText, verdictOf, type FindingDraft } from '../core/findings.js';
import type { JobStatus } from '../core/job.js';
import { appendJobEvent } from '../jobs/job-events.js';
import { defineQueueJob, failureKind, stageNow, type JobContext, type Queue, type QueueJobDefinition, type RetryPolicy } from '../queue/index.js';
import type { RunStarter } from '../jobs/job-service.js';
import { compiledCheckSchema, type CompiledCheck, type CompiledStep } from '../core/check.js';
import type { ProbeClient } from '../probes/probe-client.js';
import { CheckVersion } from '../store/entities/check-version.entity.js';
import { Check } from '../store/entities/check.entity.js';
import { ConnectedRepository, type EvidenceProbeRef } from '../store/entities/connected-repository.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { runPlan } from './run-plan.js';
import { runSecrets, type ReadSecret, type RunSecrets } from './test-values.js';
import { createStepRunner, type StepOutcome } from './checkpoints.js';
import { recordArtifacts, recordFindings, storeArtifact } from './run-records.js';

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

const RUNNABLE = new Set<JobStatus>(['queued', 'running']);

/** The job left `queued`/`running` under the workflow (it was cancelled): the step's writes are rolled back. */
class JobNoLongerRunnable extends Error {}

/** Moves the job on only if it is still in one of `from`; otherwise the step's transaction is abandoned. */
async function advanceJob(manager: EntityManager, jobId: string, from: JobStatus[], changes: Partial<Pick<Job, 'status' | 'startedAt' | 'finishedAt'>>): Promise<void> {
  const result = await manager.update(Job, { id: jobId, status: In(from) }, changes);
  if (result.affected === 0) throw new JobNoLongerRunnable(`job ${jobId} is no longer ${from.join(' or ')}`);
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
      if (!RUNNABLE.has(job.status as JobStatus)) {
        context.logger.info({ status: job.status }, 'job is not runnable any more; nothing to do');
        return;
      }
      try {
        await runSteps(deps, job, context);
      } catch (error) {
        if (error instanceof JobNoLongerRunnable) {
          context.logger.info('job was cancelled while it ran; stopped');
          return;
        }
        // The same judgement as the queue's retry policy: operational failures are retried until the last attempt.
        const final = !context.signal.aborted && (failureKind(error) !== 'operational' || context.attempt > retry.maxRetries);
        await recordFailure(deps.dataSource, jobId, error, final, context);
        deps.eventsWritten?.(jobId);
        if (!final) throw error;
      }
    },
  });
}

async function runSteps(deps: QaRunDeps, job: Job, context: JobContext): Promise<void> {
  const eventsWritten = () => deps.eventsWritten?.(job.id);
  const steps = createStepRunner(deps.dataSource, job.id, eventsWritten);
  // Runs of this job so far: a worker that took over after another died (its lock expired) is not a queue retry,
  // so the queue's attempt count does not see it; the history does.
  let attempt = 1;
  if ((await steps.completed('start')) !== undefined) {
    const resumed = await deps.dataSource.getRepository(JobEvent).countBy({ jobId: job.id, type: 'job.resumed' });
    attempt = resumed + 2;
    await deps.dataSource.transaction((manager) => appendJobEvent(manager, job.id, 'job.resumed', { attempt }));
    eventsWritten();
  }
  await steps.run('start', async () => ({
    result: {},
    async record(manager) {
      await advanceJob(manager, job.id, ['queued', 'running'], { status: 'running', startedAt: new Date() });
      await appendJobEvent(manager, job.id, 'job.started', { baseUrl: job.baseUrl, attempt });
    },
  }));

  const planned = await plannedSteps(deps.dataSource, job);
  if (planned && attempt > 1 && (await steps.completed('run')) === undefined) await refuseRepeatedSideEffects(deps.dataSource, job, planned);
  const run = planned
    ? await steps.run('run', () => withHeartbeat(context, deps.heartbeatMs, () => runPlanned(deps, job, planned.steps, context, attempt)))
    : await steps.run('visit', () => withHeartbeat(context, deps.heartbeatMs, () => visitTarget(deps, job, context)));
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
        async record(manager) {
          const [{ latest }] = (await manager.query(`SELECT COALESCE(MAX(version), 0) AS latest FROM check_versions WHERE check_id = ?`, [checkId])) as { latest: number | string }[];
          const version = Number(latest) + 1;
          const current = await manager.findOne(Job, { select: { id: true, status: true }, where: { id: job.id } });
          if (current?.status !== 'running') throw new JobNoLongerRunnable(`job ${job.id} is ${current?.status ?? 'gone'}`);
          await manager.insert(CheckVersion, { checkId, version, compiled, source, jobId: job.id });
          await manager.update(Check, { id: checkId }, { status: 'active', version });
          await appendJobEvent(manager, job.id, 'check.compiled', { checkId, version, steps: compiled.steps.length });
        },
      };
    });
  }

  await steps.run('finish', async () => ({
    result: {},
    async record(manager) {
      await advanceJob(manager, job.id, ['running'], { status: verdict, finishedAt: new Date() });
      await appendJobEvent(manager, job.id, verdict === 'passed' ? 'job.passed' : 'job.failed', {
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
async function runPlanned(deps: QaRunDeps, job: Job, planned: CompiledStep[], context: JobContext, attempt: number): Promise<StepOutcome<PlannedRunResult>> {
  const repository = await deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: job.repositoryId });
  const secrets = runSecrets(repository, deps.readSecret);
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
      { dataSource: deps.dataSource, artifacts: deps.artifacts, probes: deps.probes, stepTimeoutMs: deps.stepTimeoutMs, eventsWritten: () => deps.eventsWritten?.(job.id) },
      { job, session, steps: planned, testValue: secrets.testValue, probeTarget: secrets.probeTarget, scrubber: secrets.scrubber, secretValues: secrets.values, attempt, stop: stop.signal,
        // axe's legacy mode: no cross-origin frames, but about 3x faster (0.3–0.4 s a page instead of ~1 s).
        accessibility: createAccessibilityAudit({ crossOriginFrames: false }) },
    );
    if (context.signal.aborted) throw context.signal.reason;
    if (run.stopped === STOP_CANCELLED) {
      return { result: { verdict: 'cancelled', findings: 0, errors: 0, resolved: run.resolved }, record: async () => undefined };
    }
    const observed = secrets.scrubber.value(findingsFromObservations(session.observations, null));
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
      async record(manager: Parameters<typeof recordArtifacts>[0]) {
        await recordArtifacts(manager, traced);
        await recordFindings(manager, job.organizationId, job.id, observed, traced.map((artifact) => artifact.id));
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
async function visitTarget(deps: QaRunDeps, job: Job, context: JobContext) {
  const allowlist = createHostAllowlist(job.baseUrl, job.networkAllowlist);
  const session = await deps.browsers.openSession(allowlist);
  const closeOnAbort = () => void session.close().catch(() => undefined);
  context.signal.addEventListener('abort', closeOnAbort, { once: true });
  try {
    const repository = await deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: job.repositoryId });
    const secrets = runSecrets(repository, deps.readSecret);
    await startTrace(session.context);
    const started = performance.now();
    const navigation = await navigate(session, job.baseUrl);
    if (context.signal.aborted) throw context.signal.reason;
    const screenshot = await session.page
      .screenshot({ type: 'png', fullPage: true, timeout: 10_000, mask: secrets.values.map((value) => session.page.getByText(value)) })
      .catch(() => undefined);
    const drafts: FindingDraft[] = secrets.scrubber.value([...navigation.findings, ...findingsFromObservations(session.observations, null)]);
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
      async record(manager: Parameters<typeof recordArtifacts>[0]) {
        await appendJobEvent(manager, job.id, 'page.visited', {
          url: navigation.url,
          status: navigation.status,
          title: navigation.title,
          ms: Math.round(performance.now() - started),
          allowedHosts: allowlist.hosts,
        });
        await recordArtifacts(manager, artifacts);
        await recordFindings(manager, job.organizationId, job.id, drafts, artifacts.map((artifact) => artifact.id));
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
    return { url: session.page.url(), status, title: await session.page.title().catch(() => ''), findings: navigationBlockedFindings(url, session.page.url(), session.allowlist, null) };
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

/** A failed attempt: said in the history; a final one also ends the job as errored (with the reason). */
async function recordFailure(dataSource: DataSource, jobId: string, error: unknown, final: boolean, context: JobContext): Promise<void> {
  const reason = error instanceof AppError ? error.message : 'an unexpected error stopped the run';
  context.logger.warn({ err: error, final }, 'qa run attempt failed');
  try {
    await dataSource.transaction(async (manager) => {
      if (final) {
        await manager.update(Job, { id: jobId }, { status: 'errored', finishedAt: new Date() });
        await appendJobEvent(manager, jobId, 'job.errored', { reason, attempt: context.attempt });
      } else if (!context.signal.aborted) {
        await appendJobEvent(manager, jobId, 'run.retrying', { reason, attempt: context.attempt });
      }
    });
  } catch (recordError) {
    // The database may be what failed; the queue's retry still stands, and the next attempt writes its own events.
    context.logger.error({ err: recordError }, 'could not record the failed attempt');
    if (final) throw recordError;
  }
}
