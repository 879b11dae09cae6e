import { pickCheckById, pickCheckByWords, looksLikeId } from '../../core/check-reference.js';
import { readAnswerLines } from '../../core/clarification-answers.js';
import type { ConversationCommand } from '../../core/conversation-command.js';
import { awaitingAnswers, latestFailed } from '../../core/conversation-jobs.js';
import { AppError, ErrorCode, isAppError } from '../../core/errors.js';
import { actorName, type Principal } from '../../core/principal.js';
import type { Check } from '../../store/entities/check.entity.js';
import type { CheckService } from '../check-service.js';
import type { CreateJobInput, JobService } from '../job-service.js';
import type { ThreadJob } from '../notification-outbox.js';

/** A job the conversation asks for: a task (at the address the person named, if any), or a compiled check. */
export type JobRequest = { task: string; baseUrl: string | null } | { check: Pick<Check, 'id' | 'repositoryId' | 'task'> };

/** Where a job asked for in a conversation runs and reports: all of `CreateJobInput` but what it runs and its key. */
export type JobTarget = Omit<CreateJobInput, 'naturalLanguageTask' | 'checkId' | 'sourceKey'>;

/**
 * Where a conversation happens (a chat thread, a pull request), as its channel's adapter knows it. `Said` is what the
 * place says in its own words when it refuses (no repository bound, a closed pull request).
 */
export interface ConversationPlace<Said> {
  principal: Principal;
  /** The key a job made by this turn is filed under: a turn handled again (a retry, a redelivery) finds it. */
  sourceKey: string;
  /** The repository whose checks words name here; undefined: the organization's. */
  checkRepository(): Promise<string | undefined>;
  /** True when a check named by its id must belong to `checkRepository()` too (a pull request runs its repository's). */
  idsWithinRepository: boolean;
  /** The conversation's jobs of the principal's organization, newest first. */
  jobs(): Promise<ThreadJob[]>;
  /** Why nothing may start or be answered here now (a closed pull request), or null. */
  closed(): Promise<{ said: Said } | null>;
  /** Where a job asked for here runs and reports, or why it cannot start here (said in the place's words). */
  jobTarget(request: JobRequest): Promise<JobTarget | { said: Said }>;
}

export type CheckLine = Pick<Check, 'id' | 'task' | 'status' | 'version' | 'repositoryId'>;

/** What a turn came to, for the channel's adapter to say in its own words (or not at all). */
export type Outcome<Said> =
  /** A job was started or answered: its progress (notify) speaks for it. */
  | { kind: 'done' }
  | { kind: 'said'; said: Said }
  | { kind: 'help' }
  | { kind: 'invalid'; message: string }
  | { kind: 'checks'; checks: CheckLine[] }
  | { kind: 'check_unknown'; wanted: string }
  | { kind: 'check_ambiguous'; wanted: string; candidates: CheckLine[] }
  | { kind: 'check_not_replayable'; task: string }
  | { kind: 'nothing_to_rerun' }
  | { kind: 'nothing_to_answer' }
  | { kind: 'answer_problem'; problem: string; fault: 'count' | 'malformed'; questions: string[] }
  | { kind: 'not_a_job_id'; text: string }
  /** An id nobody has, or another organization's: the same words for both. */
  | { kind: 'job_unknown'; jobId: string }
  | { kind: 'job_status'; job: { id: string; status: string; task: string | null }; findings: number }
  | { kind: 'cancelled'; jobId: string }
  | { kind: 'not_cancellable'; jobId: string; status: string }
  | { kind: 'no_failed_job' }
  | { kind: 'no_failing_findings'; jobId: string }
  | { kind: 'disputed'; jobId: string; count: number; reason: string }
  /** The job core refused (a paused capability, a limit, a planner that failed): each channel says what it says of that. */
  | { kind: 'refused'; error: AppError };

export interface ConversationDeps {
  jobs: Pick<JobService, 'create' | 'answer' | 'cancel' | 'get' | 'disputeFindings'>;
  checks: Pick<CheckService, 'list' | 'get'>;
}

/** Turns the job core's refusal `code` into null, for an outcome that explains it; anything else goes on up. */
const nullWhen =
  (...codes: ErrorCode[]) =>
  (error: unknown): null => {
    if (isAppError(error) && codes.includes(error.code)) return null;
    throw error;
  };

/** A refusal of the job core as an outcome; an unexpected error goes on up (the queue retries the turn). */
function refusedOrThrow(error: unknown): { kind: 'refused'; error: AppError } {
  if (isAppError(error) && error.kind !== 'unexpected') return { kind: 'refused', error };
  throw error;
}

/**
 * The `/qa` conversation, the same in every channel: parse is the channel's, the rest is here. A command is done over
 * the job use cases and the place's port, and comes back as an `Outcome`; the channel's adapter decides who may ask,
 * and says the outcome in its own words.
 */
export function createConversation(deps: ConversationDeps) {
  async function start<Said>(place: ConversationPlace<Said>, request: JobRequest): Promise<Outcome<Said>> {
    try {
      const target = await place.jobTarget(request);
      if ('said' in target) return { kind: 'said', said: target.said };
      const what = 'task' in request ? { naturalLanguageTask: request.task } : { checkId: request.check.id };
      await deps.jobs.create(place.principal, { ...target, ...what, sourceKey: place.sourceKey });
      return { kind: 'done' };
    } catch (error) {
      return refusedOrThrow(error);
    }
  }

  /**
   * The check words or an id name (the rule: src/core/check-reference.ts). An id finds the check anywhere in the
   * organization unless the place keeps to its repository; another organization's id is unknown, like one nobody has.
   */
  async function findCheck<Said>(place: ConversationPlace<Said>, wanted: string): Promise<{ check: CheckLine } | Outcome<Said>> {
    const repositoryId = await place.checkRepository();
    if (looksLikeId(wanted)) {
      const view = await deps.checks.get(place.principal, wanted.trim().toLowerCase()).catch(nullWhen(ErrorCode.CheckNotFound));
      if (!view || (place.idsWithinRepository && view.check.repositoryId !== repositoryId)) return { kind: 'check_unknown', wanted };
      return picked(pickCheckById(view.check), wanted);
    }
    const checks = await deps.checks.list(place.principal, { repositoryId, limit: 200 });
    return picked(pickCheckByWords(checks, wanted), wanted);
  }

  function picked<Said>(pick: ReturnType<typeof pickCheckByWords<CheckLine>>, wanted: string): { check: CheckLine } | Outcome<Said> {
    switch (pick.kind) {
      case 'found':
        return { check: pick.check };
      case 'unknown':
        return { kind: 'check_unknown', wanted };
      case 'ambiguous':
        return { kind: 'check_ambiguous', wanted, candidates: pick.candidates };
      case 'not_replayable':
        return { kind: 'check_not_replayable', task: pick.check.task };
    }
  }

  async function replay<Said>(place: ConversationPlace<Said>, wanted: string): Promise<Outcome<Said>> {
    const found = await findCheck(place, wanted);
    return 'check' in found ? start(place, { check: found.check }) : found;
  }

  /** What the conversation's latest job ran, again: its task (answers included), or its check. */
  async function rerun<Said>(place: ConversationPlace<Said>): Promise<Outcome<Said>> {
    const [latest] = await place.jobs();
    if (!latest) return { kind: 'nothing_to_rerun' };
    const { job } = await deps.jobs.get(place.principal, latest.id);
    if (job.task !== null) return start(place, { task: job.task, baseUrl: null });
    if (job.checkId !== null) {
      const view = await deps.checks.get(place.principal, job.checkId).catch(nullWhen(ErrorCode.CheckNotFound));
      return view ? start(place, { check: view.check }) : { kind: 'check_unknown', wanted: job.checkId };
    }
    return { kind: 'nothing_to_rerun' };
  }

  async function answer<Said>(place: ConversationPlace<Said>, lines: string[]): Promise<Outcome<Said>> {
    // An answer starts the answered job's child: not where nothing may start either.
    const closed = await place.closed();
    if (closed) return { kind: 'said', said: closed.said };
    const job = awaitingAnswers(await place.jobs());
    if (!job) return { kind: 'nothing_to_answer' };
    const questions = job.resolution!.questions;
    const reading = readAnswerLines(lines, questions.length);
    if ('problem' in reading) return { kind: 'answer_problem', problem: reading.problem, fault: reading.fault, questions };
    try {
      await deps.jobs.answer(place.principal, job.id, reading.answers, { sourceKey: place.sourceKey });
      return { kind: 'done' };
    } catch (error) {
      return refusedOrThrow(error);
    }
  }

  async function status<Said>(place: ConversationPlace<Said>, wanted: string): Promise<Outcome<Said>> {
    if (!looksLikeId(wanted)) return { kind: 'not_a_job_id', text: wanted };
    const jobId = wanted.trim().toLowerCase();
    const view = await deps.jobs.get(place.principal, jobId).catch(nullWhen(ErrorCode.JobNotFound));
    if (!view) return { kind: 'job_unknown', jobId };
    return { kind: 'job_status', job: { id: view.job.id, status: view.job.status, task: view.job.task }, findings: view.findings.length };
  }

  /** A finished job is said to be so, with its status; an unknown one gets the words of an id nobody has. */
  async function cancel<Said>(place: ConversationPlace<Said>, wanted: string): Promise<Outcome<Said>> {
    if (!looksLikeId(wanted)) return { kind: 'not_a_job_id', text: wanted };
    const jobId = wanted.trim().toLowerCase();
    try {
      await deps.jobs.cancel(place.principal, jobId);
      return { kind: 'cancelled', jobId };
    } catch (error) {
      if (!isAppError(error) || (error.code !== ErrorCode.JobNotFound && error.code !== ErrorCode.JobNotCancellable)) throw error;
      const view = error.code === ErrorCode.JobNotCancellable ? await deps.jobs.get(place.principal, jobId).catch(nullWhen(ErrorCode.JobNotFound)) : null;
      return view ? { kind: 'not_cancellable', jobId, status: view.job.status } : { kind: 'job_unknown', jobId };
    }
  }

  async function dispute<Said>(place: ConversationPlace<Said>, reason: string): Promise<Outcome<Said>> {
    const failed = latestFailed(await place.jobs());
    if (!failed) return { kind: 'no_failed_job' };
    const count = (await deps.jobs.disputeFindings(place.principal, failed.id, { by: actorName(place.principal), reason })).length;
    return count === 0 ? { kind: 'no_failing_findings', jobId: failed.id } : { kind: 'disputed', jobId: failed.id, count, reason };
  }

  async function checks<Said>(place: ConversationPlace<Said>): Promise<Outcome<Said>> {
    const repositoryId = await place.checkRepository();
    return { kind: 'checks', checks: await deps.checks.list(place.principal, { repositoryId, limit: 20 }) };
  }

  return {
    /** Does one command in one place. */
    async run<Said>(command: ConversationCommand, place: ConversationPlace<Said>): Promise<Outcome<Said>> {
      switch (command.kind) {
        case 'help':
          return { kind: 'help' };
        case 'invalid':
          return { kind: 'invalid', message: command.message };
        case 'checks':
          return checks(place);
        case 'status':
          return status(place, command.jobId);
        case 'cancel':
          return cancel(place, command.jobId);
        case 'task':
          return start(place, { task: command.task, baseUrl: command.baseUrl ?? null });
        case 'replay':
          return replay(place, command.check);
        case 'rerun':
          return rerun(place);
        case 'answer':
          return answer(place, command.lines);
        case 'dispute':
          return dispute(place, command.reason);
      }
    },
    /** The job of the place waiting for answers (the rule: src/core/conversation-jobs.ts), if any. */
    async awaiting<Said>(place: ConversationPlace<Said>): Promise<ThreadJob | undefined> {
      return awaitingAnswers(await place.jobs());
    },
  };
}

export type Conversation = ReturnType<typeof createConversation>;
