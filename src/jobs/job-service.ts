import { randomUUID } from 'node:crypto';
import { In, Like, MoreThan, type DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode, notFoundError as notFound, operationalError, userError } from '../core/errors.js';
import { pausedError, type Capability } from '../core/execution.js';
import { PlannerFailure, taskWithAnswers, type Interpretation, type PlannerCall } from '../core/interpretation.js';
import type { JobTrigger, Resolution } from '../core/job.js';
import { CANCELLABLE, isFinished, type JobEventType, type JobStatus } from '../core/job-lifecycle.js';
import type { Planner } from '../planner/planner.js';
import type { Readable } from 'node:stream';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import { Artifact } from '../store/entities/artifact.entity.js';
import { Check } from '../store/entities/check.entity.js';
import { Finding } from '../store/entities/finding.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { isDuplicateKey } from '../store/duplicate-key.js';
import { readJobCreationContext, type JobCreationContext } from '../store/job-creation-context.js';
import { insertRows, type StagedWorkflow, type Statement, type WriteBatch } from '../store/write-batch.js';
import { createFindingDisputes } from './finding-disputes.js';
import { appendJobEvent } from './job-events.js';
import { notificationTarget, reopenNotification, stageNotification, type NotificationStarter, type StagedNotification } from './notification-outbox.js';
import type { Principal } from '../core/principal.js';

/** A validated create request, independent of the naming set it arrived in. */
export interface CreateJobInput {
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
}

/**
 * Why the service cancelled a job (the `job.cancelled` event's data): a code (`pull_request_closed`, `superseded`)
 * and a sentence for the people following the job.
 */
export interface CancelReason {
  reason: string;
  message: string;
}

/** The longest source key `jobs.source_key` holds. */
export const MAX_SOURCE_KEY = 200;

/** What creating a job led to: a started workflow, or questions to answer first. */
export type CreatedJob =
  | { kind: 'runnable'; jobId: string; workflowId: string; checkId: string; parentJobId: string | null }
  | { kind: 'review_required'; jobId: string; resolution: Resolution; parentJobId: string | null };

export interface JobView {
  job: Job;
  childJobIds: string[];
  events: JobEvent[];
  artifacts: Artifact[];
  findings: Finding[];
}

/**
 * Starts a runnable job's durable workflow: its queue job is committed in the transaction that writes the job, so
 * the job and its workflow exist together or not at all.
 */
export interface RunStarter {
  stage(jobId: string): Promise<StagedWorkflow>;
}

export interface JobServiceDeps {
  dataSource: DataSource;
  planner: Planner;
  /** Starts the durable workflows of runnable jobs. */
  runs: RunStarter;
  /** Where the workflows keep artifact bytes (read for downloads). */
  artifacts: ArtifactStorage;
  /** Commits a new job's rows in one round trip (the composition root closes it). */
  writes: WriteBatch;
  /**
   * Starts the progress delivery of jobs whose channelContext names a notified channel (chat). Without it (tests of
   * other parts) such jobs are recorded with no outbox row and report nowhere.
   */
  notifications?: NotificationStarter;
}

/**
 * The job use cases. Every read and write is scoped by the caller's organization; another organization's ids are
 * "not found", never "forbidden", so existence is not revealed.
 */
/**
 * Artifacts in the order the run made them: by time, then by step (run-wide ones such as the trace last), then by
 * name. SQLite keeps creation times to the second, so ties are common there.
 */
function inRunOrder(artifacts: Artifact[]): Artifact[] {
  const step = (artifact: Artifact) => artifact.stepIndex ?? Number.MAX_SAFE_INTEGER;
  return artifacts.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || step(a) - step(b) || a.name.localeCompare(b.name),
  );
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
function checkSourceKey(sourceKey: string | undefined): void {
  if (sourceKey !== undefined && (sourceKey.length === 0 || sourceKey.length > MAX_SOURCE_KEY)) {
    throw new RangeError(`job source key out of bounds: ${sourceKey.slice(0, 40)}`);
  }
}

function callEvents(calls: PlannerCall[]): FirstEvent[] {
  return calls.map((call) => ({ type: 'planner.called', data: { ...call } }));
}

export function createJobService({ dataSource, planner, runs, artifacts: artifactStorage, writes, notifications }: JobServiceDeps) {
  /**
   * In `manager`'s transaction: the job cancelled if it had not finished, with its `job.cancelled` event (`data`), and
   * the wake-up of its notification's delivery to call after the commit (undefined when it reports nowhere); false
   * when it is not the organization's or has finished.
   */
  async function cancelIn(manager: EntityManager, organizationId: string, jobId: string, data: Record<string, unknown>): Promise<(() => Promise<void>) | undefined | false> {
    const result = await manager.update(Job, { id: jobId, organizationId, status: In([...CANCELLABLE]) }, { status: 'cancelled', finishedAt: new Date() });
    if (result.affected === 0) return false;
    await appendJobEvent(manager, jobId, 'job.cancelled', data);
    // A review_required job's message was final; it now says cancelled.
    return notifications ? reopenNotification(manager, notifications, jobId) : undefined;
  }

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
      insertRows(dataSource, Job, [row]),
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

  /**
   * The parent's `job.answered` event for its child, once: a rerun that found the child already made adds it only if
   * the first run stopped before writing it.
   */
  async function noteAnswered(parentId: string, childId: string): Promise<void> {
    const wake = await dataSource.transaction(async (manager) => {
      const answered = await manager.find(JobEvent, { where: { jobId: parentId, type: 'job.answered' } });
      if (answered.some((event) => (event.data as { childJobId?: unknown }).childJobId === childId)) return undefined;
      await appendJobEvent(manager, parentId, 'job.answered', { childJobId: childId });
      // The parent's message shows the answer (and loses its buttons) once more.
      return notifications ? reopenNotification(manager, notifications, parentId) : undefined;
    });
    await wake?.();
  }

  return {
    /** `disputeFindings(principal, jobId, { by, reason, findingIds? })`: "not a bug" (finding-disputes.ts). */
    ...createFindingDisputes(dataSource),

    /** Creates a job: a replay of a stored check, or a natural-language task interpreted first. */
    async create(principal: Principal, input: CreateJobInput): Promise<CreatedJob> {
      const { organizationId } = principal;
      checkSourceKey(input.sourceKey);
      // A request made again gets the job it made, whatever has changed since (a pause, the check, the planner).
      const earlier = await createdBefore(organizationId, input.sourceKey);
      if (earlier) return earlier;
      // A context its channel cannot deliver to is refused before the planner spends anything on the task.
      notificationTarget(input.channelContext);
      // A replay needs the browser only; a natural-language task needs the planner too.
      const context = await admit(organizationId, input.repositoryId, input.checkId !== undefined ? ['live'] : ['live', 'ai']);
      if (input.checkId !== undefined) {
        const check = await dataSource.getRepository(Check).findOneBy({ id: input.checkId, organizationId });
        if (!check) throw notFound('check', 'checkId');
        if (check.repositoryId !== input.repositoryId) {
          throw userError(ErrorCode.CheckOtherRepository, 'That check belongs to another repository', { details: { field: 'checkId' } });
        }
        return record(organizationId, input, undefined, null);
      }
      return record(organizationId, input, await interpret(organizationId, input, null, context), null);
    },

    /**
     * Answers a review_required job: the job stays as it is, and a linked child job carries the task with the
     * questions and answers. The child is runnable, or itself review_required if the answers do not settle it.
     */
    async answer(principal: Principal, jobId: string, answers: string[], options: { sourceKey?: string } = {}): Promise<CreatedJob> {
      const { organizationId } = principal;
      checkSourceKey(options.sourceKey);
      // The same answers given again (a rerun of the chat reply) get the child they made; the parent may look
      // different by now (the child is the thread's newest job), so this comes before any check of it.
      const earlier = await createdBefore(organizationId, options.sourceKey);
      if (earlier) {
        if (earlier.parentJobId !== null) await noteAnswered(earlier.parentJobId, earlier.jobId);
        return earlier;
      }
      const parent = await dataSource.getRepository(Job).findOneBy({ id: jobId, organizationId });
      if (!parent) throw notFound('job');
      if (parent.status !== 'review_required' || !parent.resolution || parent.task === null) {
        throw new AppError({
          kind: 'user',
          code: ErrorCode.JobNotAwaitingAnswers,
          status: 409,
          message: `Job is ${parent.status}; only a review_required job takes answers`,
        });
      }
      const { questions } = parent.resolution;
      if (answers.length !== questions.length) {
        throw userError(ErrorCode.ClarificationAnswerCount, `Expected ${questions.length} answer(s), one per question in order; got ${answers.length}`, {
          details: { field: 'answers', expected: questions.length, received: answers.length },
        });
      }
      const context = await admit(organizationId, parent.repositoryId, ['live', 'ai']);
      const task = taskWithAnswers(parent.task, { questions, answers: answers.map((answer) => answer.trim()) });
      const input: CreateJobInput = {
        repositoryId: parent.repositoryId,
        naturalLanguageTask: task,
        commitSha: parent.commitSha ?? undefined,
        baseUrl: parent.baseUrl,
        networkAllowlist: parent.networkAllowlist,
        trigger: parent.trigger as JobTrigger,
        channelContext: (parent.channelContext as Record<string, unknown> | null) ?? undefined,
        ...(options.sourceKey === undefined ? {} : { sourceKey: options.sourceKey }),
      };
      const child = await record(organizationId, input, await interpret(organizationId, input, parent.id, context), parent.id);
      await noteAnswered(parent.id, child.jobId);
      return child;
    },

    /**
     * Events after index `after`, and whether the job is finished (no more events will come): a terminal status,
     * or review_required, which starts no workflow.
     */
    async eventsAfter(principal: Principal, jobId: string, after: number): Promise<{ events: JobEvent[]; finished: boolean }> {
      const { organizationId } = principal;
      const job = await dataSource.getRepository(Job).findOne({ select: { id: true, status: true }, where: { id: jobId, organizationId } });
      if (!job) throw notFound('job');
      const events = await dataSource.getRepository(JobEvent).find({ where: { jobId, seq: MoreThan(after) }, order: { seq: 'ASC' } });
      return { events, finished: isFinished(job.status) };
    },

    /**
     * Cancels a job that has not finished: a queued job never runs, a running one stops at its next step (the
     * worker watches for this), and one awaiting answers stops waiting. A finished job answers 409.
     */
    async cancel(principal: Principal, jobId: string): Promise<{ jobId: string; status: 'cancelled' }> {
      const { organizationId } = principal;
      const wake = await dataSource.transaction(async (manager) => {
        const cancelled = await cancelIn(manager, organizationId, jobId, {});
        if (cancelled === false) {
          const job = await manager.findOne(Job, { select: { id: true, status: true }, where: { id: jobId, organizationId } });
          if (!job) throw notFound('job');
          throw new AppError({ kind: 'user', code: ErrorCode.JobNotCancellable, status: 409, message: `Job is ${job.status}; only a queued, running or review_required job can be cancelled` });
        }
        return cancelled;
      });
      await wake?.();
      return { jobId, status: 'cancelled' };
    },

    /**
     * Cancels, for the service's own reason, the organization's unfinished jobs made under a source key that starts
     * with `prefix` (and that `keep` does not keep), as `cancel` does, each in its own transaction; the `job.cancelled`
     * event says why. Each such job gives up its source key, so the same request made again (a pull request reopened
     * at the same head) starts a new job instead of finding the cancelled one. Returns the ids cancelled; a job that
     * ended meanwhile is left as it ended.
     */
    async cancelMadeUnder(principal: Principal, prefix: string, why: CancelReason, keep: (sourceKey: string) => boolean = () => false): Promise<string[]> {
      checkSourceKey(prefix);
      const { organizationId } = principal;
      const candidates = await dataSource.getRepository(Job).find({
        select: { id: true, sourceKey: true },
        // LIKE narrows the read (the unique index starts with these columns); it is not exact on either dialect (`_`
        // matches any character, and case is ignored), so the keys are compared again below.
        where: { organizationId, sourceKey: Like(`${prefix}%`), status: In([...CANCELLABLE]) },
      });
      const cancelled: string[] = [];
      for (const job of candidates) {
        if (job.sourceKey === null || !job.sourceKey.startsWith(prefix) || keep(job.sourceKey)) continue;
        const wake = await dataSource.transaction(async (manager) => {
          const done = await cancelIn(manager, organizationId, job.id, { reason: why.reason, message: why.message });
          if (done !== false) await manager.update(Job, { id: job.id, organizationId }, { sourceKey: null });
          return done;
        });
        if (wake === false) continue;
        cancelled.push(job.id);
        await wake?.();
      }
      return cancelled;
    },

    /** The id of the organization's job made under `sourceKey` (a request that may come again), or null. */
    async madeFor(principal: Principal, sourceKey: string): Promise<string | null> {
      checkSourceKey(sourceKey);
      const job = await dataSource.getRepository(Job).findOne({ select: { id: true }, where: { organizationId: principal.organizationId, sourceKey } });
      return job?.id ?? null;
    },

    /** A job with its children, ordered history, artifacts and findings. */
    async get(principal: Principal, jobId: string): Promise<JobView> {
      const { organizationId } = principal;
      const job = await dataSource.getRepository(Job).findOneBy({ id: jobId, organizationId });
      if (!job) throw notFound('job');
      const [children, events, artifacts, findings] = await Promise.all([
        dataSource.getRepository(Job).find({ select: { id: true }, where: { parentJobId: job.id, organizationId }, order: { createdAt: 'ASC' } }),
        dataSource.getRepository(JobEvent).find({ where: { jobId: job.id }, order: { seq: 'ASC' } }),
        dataSource.getRepository(Artifact).find({ where: { jobId: job.id, organizationId } }).then(inRunOrder),
        dataSource.getRepository(Finding).find({ where: { jobId: job.id, organizationId }, order: { position: 'ASC' } }),
      ]);
      return { job, childJobIds: children.map((child) => child.id), events, artifacts, findings };
    },

    /** An artifact of one of the organization's jobs, with its bytes; 404 for anything else. */
    async openArtifact(principal: Principal, jobId: string, artifactId: string): Promise<{ artifact: Artifact; content: Readable }> {
      const { organizationId } = principal;
      const artifact = await dataSource.getRepository(Artifact).findOneBy({ id: artifactId, jobId, organizationId });
      if (!artifact) throw notFound('artifact');
      return { artifact, content: await artifactStorage.open(artifact.storageKey) };
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
