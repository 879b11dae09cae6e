import { randomUUID } from 'node:crypto';
import { In, MoreThan, type DataSource, type EntityManager } from 'typeorm';
import { AppError, notFoundError as notFound, operationalError, userError } from '../core/errors.js';
import type { Capability } from '../core/execution.js';
import { PlannerFailure, taskWithAnswers, type Interpretation, type PlannerCall } from '../core/interpretation.js';
import type { JobStatus, JobTrigger, Resolution } from '../core/job.js';
import type { Planner } from '../planner/planner.js';
import type { Readable } from 'node:stream';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import { Artifact } from '../store/entities/artifact.entity.js';
import { Check } from '../store/entities/check.entity.js';
import { Finding } from '../store/entities/finding.entity.js';
import { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { assertCapabilitiesRunning } from '../store/execution-flags.js';
import { appendFirstJobEvents, appendJobEvent } from './job-events.js';
import { isFinishedStatus } from './job-progress.js';

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
}

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

export interface JobServiceDeps {
  dataSource: DataSource;
  planner: Planner;
  /** Starts the durable workflow of a runnable job; resolves with the workflow id. */
  startRun(jobId: string): Promise<string>;
  /** Where the workflows keep artifact bytes (read for downloads). */
  artifacts: ArtifactStorage;
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
  };
}

function callEvents(calls: PlannerCall[]): { type: 'planner.called'; data: Record<string, unknown> }[] {
  return calls.map((call) => ({ type: 'planner.called', data: { ...call } }));
}

export function createJobService({ dataSource, planner, startRun, artifacts: artifactStorage }: JobServiceDeps) {
  async function repositoryOf(organizationId: string, repositoryId: string): Promise<ConnectedRepository> {
    const repository = await dataSource.getRepository(ConnectedRepository).findOneBy({ id: repositoryId, organizationId });
    if (!repository) throw notFound('repository', 'repositoryId');
    return repository;
  }

  /** 503 before anything is written when an operator has paused what this work needs. */
  const assertRunning = (organizationId: string, needed: Capability[]) => assertCapabilitiesRunning(dataSource, organizationId, needed);

  /**
   * The planner's reading of a task. A planner that fails (a model that answered badly twice) still leaves a job:
   * errored, with the calls it cost and the reason, so the caller has something to look at; then 502.
   */
  async function interpret(organizationId: string, input: CreateJobInput, parentJobId: string | null, repository: ConnectedRepository): Promise<Interpretation> {
    try {
      return await planner.interpret(input.naturalLanguageTask!, {
        testValueNames: Object.keys(repository.testValueSecretRefs),
        evidenceCriteria: Object.keys(repository.evidenceProbeRefs),
      });
    } catch (error) {
      if (!(error instanceof PlannerFailure)) throw error;
      const jobId = await recordPlannerFailure(organizationId, input, error, parentJobId);
      throw new AppError({
        kind: 'operational',
        code: 'planner.failed',
        status: 502,
        message: `The planner could not read the task: ${error.reason}. The job is recorded as errored; try again`,
        details: { jobId, reason: error.reason },
        cause: error,
      });
    }
  }

  async function recordPlannerFailure(organizationId: string, input: CreateJobInput, failure: PlannerFailure, parentJobId: string | null): Promise<string> {
    const jobId = randomUUID();
    await dataSource.transaction(async (manager: EntityManager) => {
      await manager.insert(Job, {
        ...jobRow(organizationId, input, parentJobId),
        id: jobId,
        checkId: null,
        status: 'errored',
        resolution: null,
        plan: null,
        finishedAt: new Date(),
      });
      await appendFirstJobEvents(manager, jobId, [
        { type: 'job.created', data: { trigger: input.trigger, parentJobId } },
        ...callEvents(failure.calls),
        { type: 'job.errored', data: { reason: `planner failed: ${failure.reason}` } },
      ]);
    });
    return jobId;
  }

  /**
   * Writes the job (with a draft check for a runnable natural-language task) and its first events in one
   * transaction, and starts the workflow only after the commit, so a workflow never sees an uncommitted job.
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
    await dataSource.transaction(async (manager: EntityManager) => {
      if (!needsAnswers && checkId === null) {
        checkId = randomUUID();
        await manager.insert(Check, {
          id: checkId,
          organizationId,
          repositoryId: input.repositoryId,
          status: 'draft',
          task: input.naturalLanguageTask!,
          version: 0,
        });
      }
      await manager.insert(Job, {
        ...jobRow(organizationId, input, parentJobId),
        id: jobId,
        checkId,
        status,
        resolution,
        plan: interpretation?.kind === 'runnable' ? interpretation.plan : null,
      });
      await appendFirstJobEvents(manager, jobId, [
        { type: 'job.created', data: { trigger: input.trigger, parentJobId } },
        ...callEvents(interpretation?.calls ?? []),
        // `job.queued` is written here, not after the enqueue: once enqueued, the worker may already be appending
        // `job.started`, and two writers would race for the next index.
        resolution ? { type: 'job.review_required' as const, data: { ...resolution } } : { type: 'job.queued' as const, data: {} },
      ]);
    });
    if (resolution) return { kind: 'review_required', jobId, resolution, parentJobId };

    let workflowId: string;
    try {
      workflowId = await startRun(jobId);
    } catch (error) {
      // The job is committed but nothing will run it: say so on the job instead of leaving it queued forever.
      await dataSource.transaction(async (manager) => {
        await manager.update(Job, { id: jobId }, { status: 'errored' });
        await appendJobEvent(manager, jobId, 'job.errored', { reason: 'the workflow could not be started' });
      });
      throw operationalError('job.start_failed', 'The job was recorded but its workflow could not be started; it is marked errored, try again', {
        cause: error,
        details: { jobId },
      });
    }
    await dataSource.getRepository(Job).update({ id: jobId }, { workflowId });
    return { kind: 'runnable', jobId, workflowId, checkId: checkId!, parentJobId };
  }

  return {
    /** Creates a job: a replay of a stored check, or a natural-language task interpreted first. */
    async create(organizationId: string, input: CreateJobInput): Promise<CreatedJob> {
      const repository = await repositoryOf(organizationId, input.repositoryId);
      // A replay needs the browser only; a natural-language task needs the planner too.
      await assertRunning(organizationId, input.checkId !== undefined ? ['live'] : ['live', 'ai']);
      if (input.checkId !== undefined) {
        const check = await dataSource.getRepository(Check).findOneBy({ id: input.checkId, organizationId });
        if (!check) throw notFound('check', 'checkId');
        if (check.repositoryId !== input.repositoryId) {
          throw userError('check.other_repository', 'That check belongs to another repository', { details: { field: 'checkId' } });
        }
        return record(organizationId, input, undefined, null);
      }
      return record(organizationId, input, await interpret(organizationId, input, null, repository), null);
    },

    /**
     * Answers a review_required job: the job stays as it is, and a linked child job carries the task with the
     * questions and answers. The child is runnable, or itself review_required if the answers do not settle it.
     */
    async answer(organizationId: string, jobId: string, answers: string[]): Promise<CreatedJob> {
      const parent = await dataSource.getRepository(Job).findOneBy({ id: jobId, organizationId });
      if (!parent) throw notFound('job');
      if (parent.status !== 'review_required' || !parent.resolution || parent.task === null) {
        throw new AppError({
          kind: 'user',
          code: 'job.not_awaiting_answers',
          status: 409,
          message: `Job is ${parent.status}; only a review_required job takes answers`,
        });
      }
      const { questions } = parent.resolution;
      if (answers.length !== questions.length) {
        throw userError('clarification.answer_count', `Expected ${questions.length} answer(s), one per question in order; got ${answers.length}`, {
          details: { field: 'answers', expected: questions.length, received: answers.length },
        });
      }
      await assertRunning(organizationId, ['live', 'ai']);
      const task = taskWithAnswers(parent.task, { questions, answers: answers.map((answer) => answer.trim()) });
      const repository = await repositoryOf(organizationId, parent.repositoryId);
      const input: CreateJobInput = {
        repositoryId: parent.repositoryId,
        naturalLanguageTask: task,
        commitSha: parent.commitSha ?? undefined,
        baseUrl: parent.baseUrl,
        networkAllowlist: parent.networkAllowlist,
        trigger: parent.trigger as JobTrigger,
        channelContext: (parent.channelContext as Record<string, unknown> | null) ?? undefined,
      };
      const child = await record(organizationId, input, await interpret(organizationId, input, parent.id, repository), parent.id);
      await dataSource.transaction((manager) => appendJobEvent(manager, parent.id, 'job.answered', { childJobId: child.jobId }));
      return child;
    },

    /**
     * Events after index `after`, and whether the job is finished (no more events will come): a terminal status,
     * or review_required, which starts no workflow.
     */
    async eventsAfter(organizationId: string, jobId: string, after: number): Promise<{ events: JobEvent[]; finished: boolean }> {
      const job = await dataSource.getRepository(Job).findOne({ select: { id: true, status: true }, where: { id: jobId, organizationId } });
      if (!job) throw notFound('job');
      const events = await dataSource.getRepository(JobEvent).find({ where: { jobId, seq: MoreThan(after) }, order: { seq: 'ASC' } });
      return { events, finished: isFinishedStatus(job.status) };
    },

    /**
     * Cancels a job that has not finished: a queued job never runs, a running one stops at its next step (the
     * worker watches for this), and one awaiting answers stops waiting. A finished job answers 409.
     */
    async cancel(organizationId: string, jobId: string): Promise<{ jobId: string; status: 'cancelled' }> {
      await dataSource.transaction(async (manager) => {
        const result = await manager.update(
          Job,
          { id: jobId, organizationId, status: In(['queued', 'running', 'review_required']) },
          { status: 'cancelled', finishedAt: new Date() },
        );
        if (result.affected === 0) {
          const job = await manager.findOne(Job, { select: { id: true, status: true }, where: { id: jobId, organizationId } });
          if (!job) throw notFound('job');
          throw new AppError({ kind: 'user', code: 'job.not_cancellable', status: 409, message: `Job is ${job.status}; only a queued, running or review_required job can be cancelled` });
        }
        await appendJobEvent(manager, jobId, 'job.cancelled', {});
      });
      return { jobId, status: 'cancelled' };
    },

    /** A job with its children, ordered history, artifacts and findings. */
    async get(organizationId: string, jobId: string): Promise<JobView> {
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
    async openArtifact(organizationId: string, jobId: string, artifactId: string): Promise<{ artifact: Artifact; content: Readable }> {
      const artifact = await dataSource.getRepository(Artifact).findOneBy({ id: artifactId, jobId, organizationId });
      if (!artifact) throw notFound('artifact');
      return { artifact, content: await artifactStorage.open(artifact.storageKey) };
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
