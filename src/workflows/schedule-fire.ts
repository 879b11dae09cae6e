import { randomUUID } from 'node:crypto';
import type { Agenda } from 'agenda';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { AppError, ErrorCode, isAppError } from '../core/errors.js';
import { schedulePrincipal } from '../core/principal.js';
import type { JobService } from '../jobs/job-service.js';
import type { ScheduleRepeats, ScheduleTiming } from '../jobs/schedule-service.js';
import { defineQueueJob, failureKind, type QueueRunContext, type QueueJobDefinition, type RetryPolicy } from '../queue/index.js';
import { ScheduleFire, type ScheduleFireOutcome } from '../store/entities/schedule-fire.entity.js';
import { Schedule } from '../store/entities/schedule.entity.js';

/** The Agenda repeat job of a schedule: one per schedule, unique by `data.scheduleId`. */
export const SCHEDULE_FIRE_JOB = 'schedule-fire';

export const scheduleFirePayload = z.object({ scheduleId: z.string().uuid() });

/** A fire that could not reach the database is tried again a few times; a late replay beats a missing one. */
export const SCHEDULE_FIRE_RETRY: RetryPolicy = { baseDelayMs: 5_000, factor: 2, maxDelayMs: 60_000, maxRetries: 3, jitter: 0.2 };

const MAX_REASON = 500;

/**
 * Schedules' repeat jobs on Agenda. Saved with `create().repeatEvery().unique()`, not `every()`: `every()` saves a
 * `single` job, one per job name, which would make every schedule share one row. Both kinds start at the next run
 * (`skipImmediate`): a cron expression at its next match in the schedule's zone, an interval one interval from now.
 */
export function createScheduleRepeats(agenda: Agenda): ScheduleRepeats {
  return {
    async save(timing: ScheduleTiming) {
      const job = agenda.create(SCHEDULE_FIRE_JOB, scheduleFirePayload.parse({ scheduleId: timing.scheduleId }));
      const interval = timing.cron ?? (timing.intervalMinutes ?? 0) * 60_000;
      job.repeatEvery(interval, { timezone: timing.timezone, skipImmediate: true });
      // Agenda records an unusable interval as a failure of the job instead of throwing; the API validated it first.
      if (!job.attrs.nextRunAt) {
        throw new AppError({ kind: 'unexpected', code: ErrorCode.ScheduleNoNextRun, message: `No next run for "${String(interval)}": ${job.attrs.failReason ?? ''}` });
      }
      job.unique({ 'data.scheduleId': timing.scheduleId });
      if (!timing.enabled) job.disable();
      await job.save();
      return { queueJobId: String(job.attrs._id), nextRunAt: timing.enabled ? (job.attrs.nextRunAt ?? null) : null };
    },

    remove(scheduleId: string) {
      return agenda.cancel({ name: SCHEDULE_FIRE_JOB, data: { scheduleId } });
    },

    async nextRuns(queueJobIds: string[]) {
      const { jobs } = await agenda.queryJobs({ name: SCHEDULE_FIRE_JOB, ids: queueJobIds });
      const next = new Map<string, Date | null>();
      for (const job of jobs) {
        const payload = scheduleFirePayload.safeParse(job.data);
        if (payload.success) next.set(payload.data.scheduleId, job.disabled ? null : (job.nextRunAt ?? null));
      }
      return next;
    },
  };
}

export interface ScheduleFireDeps {
  dataSource: DataSource;
  /** Creates the replay (the job service's `create`): recorded, then started on the qa-run workflow. */
  createJob: JobService['create'];
  /** Removes a schedule's repeat job (used when the schedule no longer exists). */
  removeRepeat(scheduleId: string): Promise<unknown>;
  retry?: RetryPolicy;
}

/**
 * One fire of a schedule: a replay of its check through the job service, with trigger `schedule` and
 * channelContext `{scheduleId}`, so it runs on the normal qa-run workflow. Every fire is recorded
 * (`schedule_fires`, shown by `GET /api/schedules/:id`):
 *
 * - `queued`: the replay job was created.
 * - `skipped`: live execution is paused for the organization (`qa flags pause live`): no job is created and the
 *   fire is not retried; the next one tries again.
 * - `failed`: no replay could be created (the check is gone from under it), or the job was created but its
 *   workflow did not start (the job says `errored`), or the database kept failing through every retry.
 *
 * A fire for a schedule that no longer exists creates nothing and removes its own repeat job (one a failed
 * delete left behind). A fire is at least once: a worker that dies after creating the replay but before Agenda
 * records the run may fire it again when the lock expires.
 */
export function scheduleFireJob(deps: ScheduleFireDeps): QueueJobDefinition<typeof scheduleFirePayload> {
  const retry = deps.retry ?? SCHEDULE_FIRE_RETRY;
  return defineQueueJob({
    name: SCHEDULE_FIRE_JOB,
    payload: scheduleFirePayload,
    retry,
    async handle({ scheduleId }, context) {
      const schedule = await deps.dataSource.getRepository(Schedule).findOneBy({ id: scheduleId });
      if (!schedule) {
        context.logger.info({ scheduleId }, 'schedule no longer exists; removing its repeat job');
        await deps.removeRepeat(scheduleId);
        return;
      }
      if (!schedule.enabled) {
        context.logger.info({ scheduleId }, 'schedule is disabled; nothing to do');
        return;
      }
      const firedAt = new Date();
      try {
        const created = await deps.createJob(schedulePrincipal(schedule.organizationId, scheduleId), {
          repositoryId: schedule.repositoryId,
          checkId: schedule.checkId,
          baseUrl: schedule.baseUrl,
          networkAllowlist: schedule.networkAllowlist,
          trigger: 'schedule',
          channelContext: { scheduleId },
        });
        await recordFire(deps.dataSource, context, { scheduleId, firedAt, outcome: 'queued', jobId: created.jobId, reason: null });
      } catch (error) {
        const settled = settledFailure(error);
        if (settled) {
          await recordFire(deps.dataSource, context, { scheduleId, firedAt, ...settled });
          return;
        }
        // An operational failure (the database): Agenda retries it; the last attempt says so before giving up.
        if (context.attempt > retry.maxRetries) {
          await recordFire(deps.dataSource, context, { scheduleId, firedAt, outcome: 'failed', jobId: null, reason: reasonOf(error) });
        }
        throw error;
      }
    },
  });
}

type FireRecord = { outcome: ScheduleFireOutcome; jobId: string | null; reason: string | null };

/** How a failed replay ends the fire without a retry, or undefined when retrying may help. */
function settledFailure(error: unknown): FireRecord | undefined {
  if (!isAppError(error)) return undefined;
  if (error.code === ErrorCode.ExecutionPaused) return { outcome: 'skipped', jobId: null, reason: error.message };
  // The job is recorded (errored); firing again would make a second one.
  if (error.code === ErrorCode.JobStartFailed) {
    const jobId = typeof error.details?.jobId === 'string' ? error.details.jobId : null;
    return { outcome: 'failed', jobId, reason: error.message };
  }
  if (failureKind(error) !== 'operational') return { outcome: 'failed', jobId: null, reason: error.message };
  return undefined;
}

function reasonOf(error: unknown): string {
  return error instanceof AppError && error.kind !== 'unexpected' ? error.message : 'an unexpected error stopped the fire';
}

/**
 * Records a fire. Best effort: the replay (if any) exists either way, and a schedule deleted meanwhile takes its
 * records with it (the insert then fails on the foreign key).
 */
async function recordFire(dataSource: DataSource, context: QueueRunContext, fire: { scheduleId: string; firedAt: Date } & FireRecord): Promise<void> {
  try {
    await dataSource.getRepository(ScheduleFire).insert({ id: randomUUID(), ...fire, reason: fire.reason?.slice(0, MAX_REASON) ?? null });
    context.logger.info({ scheduleId: fire.scheduleId, outcome: fire.outcome, jobId: fire.jobId }, 'schedule fired');
  } catch (error) {
    context.logger.warn({ err: error, scheduleId: fire.scheduleId, outcome: fire.outcome }, 'could not record the schedule fire');
  }
}
