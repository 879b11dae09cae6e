import { AppError, ErrorCode } from './errors.js';

/**
 * A job's life, in one place: its statuses, which may follow which, and the kinds of event its history holds.
 * Every writer of a status asks `canTransition`; every reader that needs "is it over", "may it run", "may it be
 * cancelled" asks the named sets below, so an edge (API, CLI, chat, notifications) never keeps its own list.
 */

/** Job statuses. `review_required` stops before any workflow; the rest are a run's life. */
export const JOB_STATUSES = ['queued', 'running', 'passed', 'failed', 'errored', 'cancelled', 'review_required'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job's history, in the order a job usually has it. */
export const JOB_EVENT_TYPES = [
  'job.created',
  /** A model-backed planner's request (tokens and time), right after `job.created`. */
  'planner.called',
  'job.review_required',
  'job.queued',
  /** On the parent: its questions were answered by a child job. */
  'job.answered',
  'job.started',
  /** A worker took over a run another attempt left (a crash, an expired lock). */
  'job.resumed',
  'page.visited',
  'step.started',
  'step.passed',
  'step.failed',
  'check.compiled',
  /** A replay healed a step and proposed a new version of its check, which a person accepts before it replays. */
  'check.proposed',
  'artifact.created',
  'finding.recorded',
  'run.retrying',
  'job.passed',
  'job.failed',
  'job.errored',
  'job.cancelled',
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

const set = (...statuses: JobStatus[]): ReadonlySet<JobStatus> => new Set(statuses);

/** Nothing follows these: no status change, no event. */
export const TERMINAL = set('passed', 'failed', 'errored', 'cancelled');

/** No more events will come: a terminal status, or review_required (which starts no workflow; answers go to a child). */
export const FINISHED = set(...TERMINAL, 'review_required');

/** A workflow may (still) run the job. */
export const RUNNABLE = set('queued', 'running');

/** A cancel is accepted: not yet over. */
export const CANCELLABLE = set('queued', 'running', 'review_required');

/** Jobs that were handed to a workflow (all but review_required): the runs of a check. */
export const RAN = set('queued', 'running', 'passed', 'failed', 'errored', 'cancelled');

/** Statuses a job may be created with (errored: the planner failed before anything could run). */
export const INITIAL = set('queued', 'review_required', 'errored');

/**
 * Which status may follow which. `running → running` is a run taken over by a new attempt. A terminal status has
 * no successor.
 */
const NEXT: Record<JobStatus, ReadonlySet<JobStatus>> = {
  queued: set('running', 'errored', 'cancelled'),
  running: set('running', 'passed', 'failed', 'errored', 'cancelled'),
  review_required: set('cancelled'),
  passed: set(),
  failed: set(),
  errored: set(),
  cancelled: set(),
};

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}

/** Whether `to` may follow `from`. An unknown stored status (a newer deploy's) may be left for nothing. */
export function canTransition(from: string, to: JobStatus): boolean {
  return isJobStatus(from) && NEXT[from].has(to);
}

/** The statuses `to` may be reached from: what a guarded `UPDATE … WHERE status IN (…)` names. */
export function statusesBefore(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => NEXT[from].has(to));
}

/** Throws `job.invalid_transition` (409) when `to` may not follow `from`. */
export function assertTransition(from: string, to: JobStatus): void {
  if (!canTransition(from, to)) {
    throw new AppError({ kind: 'user', code: ErrorCode.JobInvalidTransition, status: 409, message: `Job is ${from}; it cannot become ${to}` });
  }
}

/** Tests on a stored status (a string column): false for a status this code does not know. */
export const isTerminal = (status: string): boolean => isJobStatus(status) && TERMINAL.has(status);
export const isFinished = (status: string): boolean => isJobStatus(status) && FINISHED.has(status);
export const isRunnable = (status: string): boolean => isJobStatus(status) && RUNNABLE.has(status);
export const isCancellable = (status: string): boolean => isJobStatus(status) && CANCELLABLE.has(status);

/**
 * The status an event announces (`job.queued` → queued, `job.passed` → passed, …), or undefined for an event that
 * names none (`job.created`, `step.passed`, …).
 */
export function statusNamedBy(eventType: string): JobStatus | undefined {
  const named = eventType.startsWith('job.') ? eventType.slice('job.'.length) : '';
  return isJobStatus(named) ? named : undefined;
}

/** Whether an event ends the job's history: nothing is written after it. */
export function isTerminalEvent(eventType: string): boolean {
  const status = statusNamedBy(eventType);
  return status !== undefined && TERMINAL.has(status);
}

/** The event that ends a run with a verdict. */
export function verdictEvent(verdict: 'passed' | 'failed'): JobEventType {
  return verdict === 'passed' ? 'job.passed' : 'job.failed';
}
