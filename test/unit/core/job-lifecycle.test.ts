import { describe, expect, it } from '@jest/globals';
import {
  assertTransition,
  CANCELLABLE,
  canTransition,
  FINISHED,
  isCancellable,
  isFinished,
  isRunnable,
  isTerminal,
  isTerminalEvent,
  JOB_EVENT_TYPES,
  JOB_STATUSES,
  RAN,
  RUNNABLE,
  statusesBefore,
  statusNamedBy,
  TERMINAL,
  type JobStatus,
} from '../../../src/core/job-lifecycle.js';
import { AppError } from '../../../src/core/errors.js';

describe('job lifecycle', () => {
  it('lets a queued job start, be cancelled or error, and nothing else', () => {
    expect(JOB_STATUSES.filter((to) => canTransition('queued', to))).toEqual(['running', 'errored', 'cancelled']);
  });

  it('lets a running job end with any outcome, or be taken over by a new attempt', () => {
    expect(JOB_STATUSES.filter((to) => canTransition('running', to))).toEqual(['running', 'passed', 'failed', 'errored', 'cancelled']);
  });

  it('lets a job awaiting answers only be cancelled (answers go to a child job)', () => {
    expect(JOB_STATUSES.filter((to) => canTransition('review_required', to))).toEqual(['cancelled']);
  });

  it('lets nothing follow a terminal status', () => {
    for (const from of TERMINAL) {
      expect(JOB_STATUSES.filter((to) => canTransition(from, to))).toEqual([]);
    }
  });

  it('refuses a status it does not know, from or to', () => {
    expect(canTransition('paused', 'running')).toBe(false);
    expect(isTerminal('paused')).toBe(false);
    expect(isRunnable('paused')).toBe(false);
  });

  it('names the statuses a guarded update may start from', () => {
    expect(statusesBefore('running')).toEqual(['queued', 'running']);
    expect(statusesBefore('passed')).toEqual(['running']);
    expect(statusesBefore('cancelled')).toEqual([...CANCELLABLE]);
    expect(statusesBefore('review_required')).toEqual([]);
  });

  it('keeps the named sets consistent with the machine', () => {
    const all = new Set<JobStatus>(JOB_STATUSES);
    // Terminal: no successor; finished adds only review_required; runnable can still reach a verdict.
    expect([...TERMINAL].every((status) => statusesBefore('running').every((from) => from !== status))).toBe(true);
    expect([...FINISHED].filter((status) => !TERMINAL.has(status))).toEqual(['review_required']);
    expect([...RUNNABLE].every((status) => canTransition(status, 'running'))).toBe(true);
    expect([...CANCELLABLE].every((status) => canTransition(status, 'cancelled'))).toBe(true);
    expect([...RAN].sort()).toEqual([...all].filter((status) => status !== 'review_required').sort());
  });

  it('answers the tests on stored statuses', () => {
    expect(JOB_STATUSES.filter(isTerminal)).toEqual(['passed', 'failed', 'errored', 'cancelled']);
    expect(JOB_STATUSES.filter(isFinished)).toEqual(['passed', 'failed', 'errored', 'cancelled', 'review_required']);
    expect(JOB_STATUSES.filter(isRunnable)).toEqual(['queued', 'running']);
    expect(JOB_STATUSES.filter(isCancellable)).toEqual(['queued', 'running', 'review_required']);
  });

  it('throws a coded 409 for a transition the machine forbids', () => {
    expect(() => assertTransition('passed', 'running')).toThrow(AppError);
    const thrown = (() => {
      try {
        assertTransition('cancelled', 'failed');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toMatchObject({ code: 'job.invalid_transition', status: 409 });
    expect(() => assertTransition('running', 'passed')).not.toThrow();
  });

  it('reads the status an event announces, and which events end a history', () => {
    expect(statusNamedBy('job.queued')).toBe('queued');
    expect(statusNamedBy('job.review_required')).toBe('review_required');
    expect(statusNamedBy('job.created')).toBeUndefined();
    expect(statusNamedBy('step.passed')).toBeUndefined();
    expect(JOB_EVENT_TYPES.filter(isTerminalEvent)).toEqual(['job.passed', 'job.failed', 'job.errored', 'job.cancelled']);
  });
});
