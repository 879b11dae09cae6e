import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode, notFoundError as notFound, operationalError } from '../core/errors.js';
import { pausedError, type Capability } from '../core/execution.js';
import { PlannerFailure, type Interpretation, type PlannerCall } from '../core/interpretation.js';
import type { JobTrigger, Resolution } from '../core/job.js';
import type { JobEventType, JobStatus } from '../core/job-lifecycle.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import type { Planner } from '../planner/planner.js';
import { Check } from '../store/entities/check.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { isDuplicateKey } from '../store/duplicate-key.js';
import { readJobCreationContext, type JobCreationContext } from '../store/job-creation-context.js';
import { insertRows, type StagedWorkflow, type Statement, type WriteBatch } from '../store/write-batch.js';
import { notificationTarget, stageNotification, type NotificationStarter, type StagedNotification } from './notification-outbox.js';

/** A validated create request, independent of the naming set it arrived in. */
export interface CreateJobInput {
  /** Who asks (`actorName` of the caller's principal): set by the use case from the principal, never by a caller. */
  startedBy?: string;
  repositoryId: string;
  checkId?: string;
  naturalLanguageTask?: string;
  commitSha?: string;
  baseUrl: string;
  networkAllowlist: string[];
  trigger: JobTrigger;
  channelContext?: Record<string, unknown>;
  /**
   * The key of the request that asks for the job, when the same request may come again (a chat delivery rerun after
   * a crash: `chat:<event id>`). A job already created under it, in the organization, is returned instead of making
   * a second; the key is written with the job, in its transaction.
   */
  sourceKey?: string;
  /** The onboarding whose catalog build this job is (trigger `system`). */
  ingestionRunId?: string;
}

/** The longest source key `jobs.source_key` holds. */
export const MAX_SOURCE_KEY = 200;

/** What creating a job led to: a started workflow, or questions to answer first. */
export type CreatedJob =
  | { kind: 'runnable'; jobId: string; workflowId: string; checkId: string; parentJobId: string | null }
  | { kind: 'review_required'; jobId: string; resolution: Resolution; parentJobId: string | null };

/**
 * Starts a runnable job's durable workflow: its queue job is committed in the transaction that writes the job, so
 * the job and its workflow exist together or not at all.
 */
export interface RunStarter {
  stage(jobId: string): Promise<StagedWorkflow>;
}

export interface JobRecordsDeps {
  dataSource: DataSource;
  planner: Planner;
  /** Starts the durable workflows of runnable jobs. */
  runs: RunStarter;
  /** Commits a new job's rows in one round trip (the composition root closes it). */
  writes: WriteBatch;
  /**
   * Starts the progress delivery of jobs whose channelContext names a notified channel (chat). Without it (tests of
   * other parts) such jobs are recorded with no outbox row and report nowhere.
   */
  notifications?: NotificationStarter;
  /** Counts the jobs created (and those created errored); default: nothing. */
  telemetry?: Telemetry;
}

/** How a new job comes to be: the port the create and answer use cases share. */
export interface JobRecords {
  /** The job an earlier run of the same request made under `sourceKey`, as that run answered; undefined when none. */
  createdBefore(organizationId: string, sourceKey: string | undefined): Promise<CreatedJob | undefined>;
  /** The repository's names and the operator's pauses; 404 for another organization's repository, 503 when paused. */
  admit(organizationId: string, repositoryId: string, needed: Capability[]): Promise<JobCreationContext>;
  /** The planner's reading of the task; a planner failure is recorded as an errored job, then thrown (502). */
  interpret(organizationId: string, input: CreateJobInput, parentJobId: string | null, context: JobCreationContext): Promise<Interpretation>;
  /** The job, its first events, its draft check, workflow and notification, in one transaction. */
  record(organizationId: string, input: CreateJobInput, interpretation: Interpretation | undefined, parentJobId: string | null): Promise<CreatedJob>;
}

/** The columns every new job row takes from its create request. */
function jobRow(organizationId: string, input: CreateJobInput, parentJobId: string | null) {
  return {
    organizationId,
    repositoryId: input.repositoryId,
    parentJobId,
    task: input.naturalLanguageTask ?? null,
    baseUrl: input.baseUrl,
    commitSha: input.commitSha ?? null,
    trigger: input.trigger,
    networkAllowlist: input.networkAllowlist,
    channelContext: input.channelContext ?? null,
    workflowId: null,
    sourceKey: input.sourceKey ?? null,
    startedBy: input.startedBy ?? null,
    ingestionRunId: input.ingestionRunId ?? null,
  };
}

/** The 502 of a planner that could not read a task; the errored job it left is named in the details. */
function plannerFailed(jobId: string, reason: string, cause?: unknown): AppError {
  return new AppError({
    kind: 'operational',
    code: ErrorCode.PlannerFailed,
    status: 502,
    message: `The planner could not read the task: ${reason}. The job is recorded as errored; try again`,
    details: { jobId, reason },
    ...(cause === undefined ? {} : { cause }),
  });
}

const PLANNER_FAILED_PREFIX = 'planner failed: ';

interface FirstEvent {
  type: JobEventType;
  data: Record<string, unknown>;
}

/** A source key is the caller's own (never a client's), so one that does not fit the column is a bug there. */
export function checkSourceKey(sourceKey: string | undefined): void {
  if (sourceKey !== undefined && (sourceKey.length === 0 || sourceKey.length > MAX_SOURCE_KEY)) {
    throw new RangeError(`job source key out of bounds: ${sourceKey.slice(0, 40)}`);
  }
}

function callEvents(calls: PlannerCall[]): FirstEvent[] {
  return calls.map((call) => ({ type: 'planner.called', data: { ...call } }));
}

export function createJobRecords({ dataSource, planner, runs, writes, notifications, telemetry = NO_TELEMETRY }: JobRecordsDeps): JobRecords {
  /** The repository's names and the operator's pauses; 404 for a repository of another organization, 503 when paused. */
  async function admit(organizationId: string, repositoryId: string, needed: Capability[]): Promise<JobCreationContext> {
    const context = await readJobCreationContext(dataSource, organizationId, repositoryId);
    if (!context) throw notFound('repository', 'repositoryId');
    const blocked = needed.find((capability) => context.paused.has(capability));
    if (blocked) throw pausedError(blocked);
    return context;
  }

  /**
   * The planner's reading of a task. A planner that fails (a model that answered badly twice) still leaves a job:
   * errored, with the calls it cost and the reason, so the caller has something to look at; then 502.
   */
  async function interpret(organizationId: string, input: CreateJobInput, parentJobId: string | null, context: JobCreationContext): Promise<Interpretation> {
    try {
      return await planner.interpret(input.naturalLanguageTask!, { testValueNames: context.testValueNames, evidenceCriteria: context.evidenceCriteria });
    } catch (error) {
      if (!(error instanceof PlannerFailure)) throw error;
      const jobId = await recordPlannerFailure(organizationId, input, error, parentJobId);
      throw plannerFailed(jobId, error.reason, error);
    }
  }

  /**
   * The job an earlier run of the same request created under `sourceKey`, as that run's `create` answered (a planner
   * failure is thrown again, naming the errored job); undefined when there is none, or no key.
   */
  async function createdBefore(organizationId: string, sourceKey: string | undefined): Promise<CreatedJob | undefined> {
    if (sourceKey === undefined) return undefined;
    const job = await dataSource.getRepository(Job).findOneBy({ organizationId, sourceKey });
    if (!job) return undefined;
    const { id: jobId, parentJobId } = job;
    if (job.resolution) return { kind: 'review_required', jobId, resolution: job.resolution, parentJobId };
    if (job.workflowId !== null) return { kind: 'runnable', jobId, workflowId: job.workflowId, checkId: job.checkId ?? '', parentJobId };
    // Neither questions nor a workflow: the planner failed on the first run, and that job says why.
    const errored = await dataSource.getRepository(JobEvent).findOneBy({ jobId, type: 'job.errored' });
    const recorded = (errored?.data as { reason?: unknown } | undefined)?.reason;
    const reason = typeof recorded === 'string' ? recorded : 'unknown';
    throw plannerFailed(jobId, reason.startsWith(PLANNER_FAILED_PREFIX) ? reason.slice(PLANNER_FAILED_PREFIX.length) : reason);
  }

  /**
   * Commits a new job's statements. When another run of the same request committed its job first (the unique
   * source key), that job is the answer and this one's rows are rolled back with their transaction.
   */
  async function commitOnce(organizationId: string, sourceKey: string | undefined, statements: Statement[]): Promise<CreatedJob | undefined> {
    try {
      await writes.commit(statements);
      return undefined;
    } catch (error) {
      if (sourceKey === undefined || !isDuplicateKey(error)) throw error;
      const earlier = await createdBefore(organizationId, sourceKey);
      if (!earlier) throw error;
      return earlier;
    }
  }

  async function recordPlannerFailure(organizationId: string, input: CreateJobInput, failure: PlannerFailure, parentJobId: string | null): Promise<string> {
    const jobId = randomUUID();
    // The thread hears of the failure too: the outbox row and its delivery commit with the errored job.
    const notification = await stageNotificationOf(organizationId, jobId, input);
    const earlier = await commitOnce(organizationId, input.sourceKey, [
      ...newJob(
        { ...jobRow(organizationId, input, parentJobId), id: jobId, checkId: null, status: 'errored', resolution: null, plan: null, finishedAt: new Date() },
        [
          { type: 'job.created', data: { trigger: input.trigger, parentJobId } },
          ...callEvents(failure.calls),
          { type: 'job.errored', data: { reason: `${PLANNER_FAILED_PREFIX}${failure.reason}` } },
        ],
      ),
      ...(notification?.statements ?? []),
    ]);
    if (earlier) return earlier.jobId;
    telemetry.jobCreated(input.trigger, organizationId);
    telemetry.jobFinished(input.trigger, 'errored', organizationId);
    await notification?.announce();
    return jobId;
  }

  /**
   * Writes the job (with a draft check for a runnable natural-language task), its first events and its workflow's
   * queue job in one transaction, and wakes workers only after the commit: a workflow never sees an uncommitted
   * job, and a job never waits for a workflow that was not written.
   */
  async function record(
    organizationId: string,
    input: CreateJobInput,
    interpretation: Interpretation | undefined,
    parentJobId: string | null,
  ): Promise<CreatedJob> {
    const jobId = randomUUID();
    const needsAnswers = interpretation?.kind === 'needs_clarification';
    const resolution: Resolution | null = needsAnswers
      ? { kind: 'needs_clarification', questions: interpretation.questions, ambiguities: interpretation.ambiguities, assumptions: interpretation.assumptions }
      : null;
    const status: JobStatus = needsAnswers ? 'review_required' : 'queued';
    let checkId = input.checkId ?? null;
    const statements: Statement[] = [];
    if (!needsAnswers && checkId === null) {
      checkId = randomUUID();
      statements.push(
        insertRows(dataSource, Check, [
          { id: checkId, organizationId, repositoryId: input.repositoryId, status: 'draft', task: input.naturalLanguageTask!, version: 0 },
        ]),
      );
    }
    // The queue jobs are written in the same transaction: no worker sees them before the job is committed.
    const run = resolution ? undefined : await stageRun(jobId);
    if (run) statements.push(run.statement);
    const notification = await stageNotificationOf(organizationId, jobId, input);
    statements.push(
      ...newJob(
        {
          ...jobRow(organizationId, input, parentJobId),
          id: jobId,
          checkId,
          status,
          resolution,
          plan: interpretation?.kind === 'runnable' ? interpretation.plan : null,
          workflowId: run?.workflowId ?? null,
        },
        [
          { type: 'job.created', data: { trigger: input.trigger, parentJobId } },
          ...callEvents(interpretation?.calls ?? []),
          // `job.queued` is written here, not after the enqueue: once committed, the worker may already be appending
          // `job.started`, and two writers would race for the next index.
          resolution ? { type: 'job.review_required', data: { ...resolution } } : { type: 'job.queued', data: {} },
        ],
      ),
    );
    // The outbox row refers to the job row, so it follows it.
    const earlier = await commitOnce(organizationId, input.sourceKey, [...statements, ...(notification?.statements ?? [])]);
    if (earlier) return earlier;
    telemetry.jobCreated(input.trigger, organizationId);
    await notification?.announce();
    if (resolution) return { kind: 'review_required', jobId, resolution, parentJobId };
    await run!.announce();
    return { kind: 'runnable', jobId, workflowId: run!.workflowId, checkId: checkId!, parentJobId };
  }

  /**
   * A new job's row and its first events at indexes 0, 1, …: no other transaction can see the job yet, so none can
   * have written events for it, and there is no next index to look up.
   */
  function newJob(row: Partial<Job> & { id: string }, events: FirstEvent[]): Statement[] {
    const at = new Date();
    return [
      insertRows(dataSource, Job, [{ ...row, updatedAt: at }]),
      insertRows(dataSource, JobEvent, events.map(({ type, data }, seq) => ({ jobId: row.id, seq, type, at, data }))),
    ];
  }

  /** The workflow's queue job, to be written in the job's transaction; a queue that refuses it writes nothing (503). */
  async function stageRun(jobId: string): Promise<StagedWorkflow> {
    try {
      return await runs.stage(jobId);
    } catch (error) {
      throw operationalError(ErrorCode.JobStartFailed, "The job's workflow could not be started, so nothing was recorded; try again", { cause: error });
    }
  }

  /**
   * The outbox row and delivery of a job whose context names a notified channel, for the job's transaction; undefined
   * for a job that reports nowhere. A delivery that cannot be staged fails the creation as a workflow would (503).
   */
  async function stageNotificationOf(organizationId: string, jobId: string, input: CreateJobInput): Promise<StagedNotification | undefined> {
    const target = notificationTarget(input.channelContext);
    if (!target || !notifications) return undefined;
    try {
      return await stageNotification(dataSource, notifications, { id: jobId, organizationId }, target);
    } catch (error) {
      throw operationalError(ErrorCode.JobStartFailed, "The job's progress notifications could not be started, so nothing was recorded; try again", { cause: error });
    }
  }

  return { createdBefore, admit, interpret, record };
}
