import { ErrorCode, userError } from '../core/errors.js';
import type { DisputedFingerprints } from '../core/finding-disputes.js';
import { isRunnable, isTerminalEvent, statusNamedBy } from '../core/job-lifecycle.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import type { JobEventType } from '../core/job-lifecycle.js';
import { createScrubber } from '../core/secrets.js';
import { defineQueueJob, type QueueRunContext, type QueueJobDefinition } from '../queue/index.js';
import { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { createStepRunner } from './checkpoints.js';
import { compileStep } from './qa-run/compile-step.js';
import { checkDisputesOf } from './qa-run/disputes.js';
import { recordFailure, stoppedQuietly } from './qa-run/failure.js';
import { finishStep, recordResume, startStep } from './qa-run/lifecycle-steps.js';
import { plannedSteps, refuseRepeatedSideEffects } from './qa-run/planned-steps.js';
import { proposeStep } from './qa-run/propose-step.js';
import { isFinalFailure, QA_RUN_RETRY } from './qa-run/retry-policy.js';
import { runPlannedStep } from './qa-run/run-step.js';
import type { PlannedRunResult, QaRunDeps, VisitResult } from './qa-run/types.js';
import { visitStep } from './qa-run/visit-step.js';
import { createRunRecorder, takeRunToken, type RunRecorder } from './run-recorder.js';
import { QA_RUN_JOB, qaRunPayload } from './run-starter.js';
import { runSecrets, type RunSecrets } from './test-values.js';

export type { QaRunDeps, SourceInput } from './qa-run/types.js';

/**
 * The QA-run workflow: start, run the job's steps (or visit the target) in a fresh browser context behind the job's
 * network allowlist, compile a passing natural-language run into its check, finish passed or failed. Each step is
 * checkpointed with its records in one commit of the run's recorder, so a run resumed by another attempt repeats
 * nothing already recorded, and an attempt that lost the run to a newer one writes nothing more.
 */
export function qaRunWorkflow(deps: QaRunDeps): QueueJobDefinition<typeof qaRunPayload> {
  const retry = deps.retry ?? QA_RUN_RETRY;
  const telemetry = deps.telemetry ?? NO_TELEMETRY;
  return defineQueueJob({
    name: QA_RUN_JOB,
    payload: qaRunPayload,
    retry,
    async handle({ jobId }, context) {
      const job = await deps.dataSource.getRepository(Job).findOneBy({ id: jobId });
      if (!job) throw userError(ErrorCode.JobNotFound, `Job ${jobId} no longer exists`);
      if (!isRunnable(job.status)) {
        context.logger.info({ status: job.status }, 'job is not runnable any more; nothing to do');
        return;
      }
      const began = performance.now();
      const attemptOver = (outcome: string) => telemetry.runAttempt(outcome, (performance.now() - began) / 1000);
      let ended: string | undefined;
      const afterCommit = (written: readonly JobEventType[]) => {
        // The commit that wrote the job's verdict (or its error) is the one that finished it, whichever attempt.
        const status = written.filter((type) => isTerminalEvent(type)).map((type) => statusNamedBy(type))[0];
        if (status) telemetry.jobFinished(job.trigger, (ended = status), job.organizationId);
        deps.eventsWritten?.(job.id, written);
      };
      const recorderOf = (attempt: number, secrets?: RunSecrets, disputes?: DisputedFingerprints): RunRecorder =>
        // Before the secrets were read there are none to scrub (only the failure record is written then).
        createRunRecorder(deps.dataSource, { jobId: job.id, organizationId: job.organizationId, attempt, scrubber: secrets?.scrubber ?? createScrubber([]), disputes, afterCommit });
      let attempt: number | undefined;
      let recorder: RunRecorder | undefined;
      try {
        // The fencing token first: from here on an earlier attempt still running writes nothing more. What the run
        // reads of its repository and its check's disputes is read beside it (reads only; used once the token is held).
        const token = takeRunToken(deps.dataSource, job.id);
        const reads = Promise.all([deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: job.repositoryId }), checkDisputesOf(deps.dataSource, job)]);
        reads.catch(() => undefined); // awaited once the token is
        attempt = await token;
        const [repository, disputes] = await reads;
        const secrets = runSecrets(repository, deps.readSecret);
        recorder = recorderOf(attempt, secrets, disputes);
        await runSteps(deps, job, recorder, secrets, context, telemetry);
        attemptOver(ended ?? 'cancelled');
      } catch (error) {
        if (stoppedQuietly(error, context)) {
          attemptOver('stopped');
          return;
        }
        const final = isFinalFailure(error, context, retry);
        try {
          await recordFailure(recorder ?? (attempt === undefined ? undefined : recorderOf(attempt)), error, final, context);
        } catch (recordError) {
          if (stoppedQuietly(recordError, context)) {
            attemptOver('stopped');
            return;
          }
          attemptOver(final ? 'errored' : 'retry');
          throw recordError;
        }
        attemptOver(final ? 'errored' : 'retry');
        if (!final) throw error;
      }
    },
  });
}

/** The workflow as a list of named steps; each runs once per job, whatever attempt gets there. */
async function runSteps(deps: QaRunDeps, job: Job, recorder: RunRecorder, secrets: RunSecrets, context: QueueRunContext, telemetry: Telemetry): Promise<void> {
  // What a step left to finish outside the database (a browser context closing): the attempt ends when it has.
  const closing: Promise<void>[] = [];
  try {
    await runStepsOf(deps, job, recorder, secrets, context, telemetry, (work) => closing.push(work));
  } finally {
    await Promise.all(closing);
  }
}

async function runStepsOf(
  deps: QaRunDeps,
  job: Job,
  recorder: RunRecorder,
  secrets: RunSecrets,
  context: QueueRunContext,
  telemetry: Telemetry,
  afterwards: (closing: Promise<void>) => void,
): Promise<void> {
  const steps = createStepRunner(deps.dataSource, recorder, (step, seconds) => telemetry.workflowStep(QA_RUN_JOB, step, seconds));
  const resumed = (await steps.completed('start')) !== undefined;
  if (resumed) await recordResume(recorder);
  // The check's steps are read beside the start's commit.
  const planning = plannedSteps(deps.dataSource, job);
  planning.catch(() => undefined); // awaited below
  await steps.run('start', async () => startStep(job, recorder.attempt));

  const planned = await planning;
  if (planned && resumed && (await steps.completed('run')) === undefined) await refuseRepeatedSideEffects(deps.dataSource, job, planned);
  const run: PlannedRunResult | VisitResult = planned
    ? await steps.run('run', () => runPlannedStep(deps, job, recorder, secrets, planned, context, afterwards))
    : await steps.run('visit', () => visitStep(deps, job, secrets, context));
  // Cancelled while it ran: the API has said so in the history; nothing more to write.
  if (run.verdict === 'cancelled') return;
  const verdict = run.verdict;

  if (verdict === 'passed' && job.plan !== null && job.checkId !== null && 'resolved' in run) {
    const input = { job, plan: job.plan, checkId: job.checkId, resolved: (run as PlannedRunResult).resolved };
    await steps.run('compile', () => compileStep(deps, input));
  }
  // A replay that passed by healing proposes a version with the healed locators; a person accepts it or not.
  const healed: number[] = 'resolved' in run ? ((run as PlannedRunResult).healed ?? []) : [];
  if (verdict === 'passed' && job.plan === null && job.checkId !== null && planned?.version !== undefined && healed.length > 0) {
    const input = { job, checkId: job.checkId, basedOn: planned.version, resolved: (run as PlannedRunResult).resolved, healed };
    await steps.run('propose', () => proposeStep(deps, input));
  }
  await steps.run('finish', async () => finishStep(verdict, run));
}
