import { AppError, ErrorCode, userError } from '../../core/errors.js';
import { defineQueueJob, failureKind, type QueueJobDefinition, type QueueRunAgain, type QueueRunContext, type RetryPolicy } from '../../queue/index.js';
import { ConnectedRepository } from '../../store/entities/connected-repository.entity.js';
import { IngestionRun } from '../../store/entities/ingestion-run.entity.js';
import { buildStep } from './build-step.js';
import { coverageStep } from './coverage-step.js';
import { discoverStep } from './discover-step.js';
import { fetchAndIndexStep } from './fetch-index-step.js';
import { ONBOARDING_JOB, onboardingPayload } from './job.js';
import type { OnboardingRepository } from './ports.js';
import { createIngestionRecorder, IngestionAttemptOver, takeIngestionToken } from './recorder.js';
import type { StepContext, OnboardingDeps } from './types.js';
import { mustWait } from './wait-for-capabilities.js';

/** A clone that timed out or a browser that would not start is tried twice more, then the ingestion fails. */
export const ONBOARDING_RETRY: RetryPolicy = { baseDelayMs: 2_000, factor: 2, maxDelayMs: 30_000, maxRetries: 2, jitter: 0.2 };
const MAX_ERROR_MESSAGE = 1000;

function repositoryOf(row: ConnectedRepository): OnboardingRepository {
  const { id, organizationId, provider, providerInstallationId, owner, name, defaultBranch, cloneUrl, baseUrl, networkAllowlist } = row;
  return { id, organizationId, provider, providerInstallationId, owner, name, defaultBranch, cloneUrl, baseUrl, networkAllowlist };
}

/**
 * The steps in order; each skips itself when its checkpoint exists. Returns `later` while a step must wait (a paused
 * capability, running children), `done` when the ingestion has succeeded.
 */
async function runSteps(step: StepContext): Promise<'done' | 'later'> {
  const { recorder } = step;
  if ((await recorder.completed('index')) === undefined) await fetchAndIndexStep(step);
  if ((await recorder.completed('discover')) === undefined) {
    if (await mustWait(step, 'discover')) return 'later';
    await discoverStep(step);
  }
  if ((await recorder.completed('coverage')) === undefined) await coverageStep(step);
  if ((await recorder.completed('build')) === undefined) {
    if (await mustWait(step, 'build')) return 'later';
    if ((await buildStep(step)) === 'later') return 'later';
  }
  await recorder.commit(async (writes) => {
    await writes.update({ status: 'succeeded', finishedAt: step.now(), waitingFor: null });
    await writes.event('ingestion.succeeded', { counts: writes.run.counts });
  });
  return 'done';
}

/** A failed attempt: said in the history; the last one (or a failure no retry can mend) fails the ingestion with its code. */
async function recordFailure(step: StepContext, error: unknown, final: boolean, context: QueueRunContext): Promise<void> {
  const code = error instanceof AppError ? error.code : ErrorCode.OnboardingStepFailed;
  const message = (error instanceof AppError ? error.message : 'An onboarding step failed unexpectedly; see the worker log').slice(0, MAX_ERROR_MESSAGE);
  context.logger.warn({ err: error, final }, 'onboarding attempt failed');
  await step.recorder.commit(async (writes) => {
    const at = { step: writes.run.step, code, message, attempt: context.attempt };
    if (!final) {
      await writes.event('attempt.failed', at);
      return;
    }
    await writes.update({ status: 'failed', errorCode: code, errorMessage: message, finishedAt: step.now(), waitingFor: null });
    await writes.event('ingestion.failed', at);
  });
}

/**
 * The onboarding workflow of one ingestion run: fetch and index the revision, discover flows and edge cases, link
 * coverage, build the missing checks. Every write goes through the run's recorder, fenced by the attempt's token, so
 * an attempt that lost its lock to another worker writes nothing more, and a resumed attempt starts at the step the
 * run was in.
 */
export function onboardingWorkflow(deps: OnboardingDeps): QueueJobDefinition<typeof onboardingPayload> {
  const retry = deps.retry ?? ONBOARDING_RETRY;
  const now = deps.now ?? (() => new Date());
  return defineQueueJob({
    name: ONBOARDING_JOB,
    payload: onboardingPayload,
    retry,
    async handle({ ingestionRunId }, context): Promise<void | QueueRunAgain> {
      const run = await deps.dataSource.getRepository(IngestionRun).findOneBy({ id: ingestionRunId });
      if (!run) throw userError(ErrorCode.IngestionNotFound, `Ingestion run ${ingestionRunId} no longer exists`);
      let step: StepContext | undefined;
      try {
        const attempt = await takeIngestionToken(deps.dataSource, ingestionRunId, now);
        const recorder = createIngestionRecorder(deps.dataSource, ingestionRunId, attempt, now);
        const repository = await deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: run.repositoryId });
        step = {
          deps, recorder, repository: repositoryOf(repository), ingestionRunId, organizationId: run.organizationId,
          revision: run.commitSha ?? run.revision, signal: context.signal, now,
        };
        if (run.status === 'queued') await recorder.commit((writes) => writes.event('ingestion.started', { revision: run.revision }));
        const outcome = await runSteps(step);
        deps.eventsWritten?.(ingestionRunId);
        return outcome === 'later' ? { runAgainAt: new Date(now().getTime() + deps.catalog.pollMs) } : undefined;
      } catch (error) {
        if (error instanceof IngestionAttemptOver) {
          context.logger.info({ reason: error.reason }, 'onboarding attempt over; stopped without writing');
          return;
        }
        // Paused between the look and the child's create: wait like a step that looked.
        if (step && error instanceof AppError && error.code === ErrorCode.ExecutionPaused) return { runAgainAt: new Date(now().getTime() + deps.catalog.pollMs) };
        const final = !context.signal.aborted && (failureKind(error) !== 'operational' || context.attempt > retry.maxRetries);
        if (step && !context.signal.aborted) {
          try {
            await recordFailure(step, error, final, context);
          } catch (recordError) {
            if (recordError instanceof IngestionAttemptOver) return;
            context.logger.error({ err: recordError }, 'could not record the failed onboarding attempt');
          }
        }
        deps.eventsWritten?.(ingestionRunId);
        if (!final) throw error;
      }
    },
  });
}
