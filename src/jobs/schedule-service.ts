import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode, notFoundError, operationalError } from '../core/errors.js';
import { Check } from '../store/entities/check.entity.js';
import { ScheduleFire } from '../store/entities/schedule-fire.entity.js';
import { Schedule } from '../store/entities/schedule.entity.js';
import { assertCapabilitiesRunning } from '../store/execution-flags.js';
import type { Principal } from '../core/principal.js';

/** When a schedule's replays run: exactly one of `cron` and `intervalMinutes`. */
export interface ScheduleTiming {
  scheduleId: string;
  cron: string | null;
  intervalMinutes: number | null;
  timezone: string;
  enabled: boolean;
}

/**
 * The queue side of schedules: one repeat job per schedule (Agenda's, in src/workflows/schedule-fire.ts), which
 * creates the replays.
 */
export interface ScheduleRepeats {
  /** Saves the schedule's repeat job (one per schedule id; saving again replaces it); its id and next run (null when disabled). */
  save(timing: ScheduleTiming): Promise<{ queueJobId: string; nextRunAt: Date | null }>;
  /** Removes the schedule's repeat job, if there is one; resolves with how many jobs were removed. */
  remove(scheduleId: string): Promise<number>;
  /** Next runs of the given repeat jobs, by schedule id (null: disabled or not due); a missing job is absent. */
  nextRuns(queueJobIds: string[]): Promise<Map<string, Date | null>>;
}

/** A validated create request. */
export interface CreateScheduleInput {
  checkId: string;
  /** The naming set the request spoke (`testId`: A, `scenarioId`: B); the schedule answers in it. */
  namingSet: 'A' | 'B';
  cron?: string;
  intervalMinutes?: number;
  timezone: string;
  baseUrl: string;
  networkAllowlist: string[];
  enabled: boolean;
}

export interface ScheduleView {
  schedule: Schedule;
  nextRunAt: Date | null;
}

export interface ScheduleDetail extends ScheduleView {
  /** The latest fires, newest first. */
  fires: ScheduleFire[];
}

export interface ScheduleServiceDeps {
  dataSource: DataSource;
  repeats: ScheduleRepeats;
}

/** Fires shown with a schedule. */
const RECENT_FIRES = 20;

/**
 * Schedules of check replays. Every read and write is scoped by the caller's organization; another organization's
 * ids are not found. A schedule is its row plus its repeat job: the row is written first and removed first, so a
 * repeat job never fires for a schedule that is still being created, and one left behind by a failed delete finds
 * no row and removes itself (src/workflows/schedule-fire.ts).
 */
export function createScheduleService({ dataSource, repeats }: ScheduleServiceDeps) {
  async function scheduleOf(organizationId: string, scheduleId: string): Promise<Schedule> {
    const schedule = await dataSource.getRepository(Schedule).findOneBy({ id: scheduleId, organizationId });
    if (!schedule) throw notFoundError('schedule');
    return schedule;
  }

  async function nextRunOf(schedule: Schedule): Promise<Date | null> {
    if (schedule.queueJobId === null) return null;
    return (await repeats.nextRuns([schedule.queueJobId])).get(schedule.id) ?? null;
  }

  return {
    /**
     * Creates a schedule of an active (compiled) check of the organization. A replay drives a browser, so live
     * execution must be on (503 otherwise); the planner is not needed.
     */
    async create(principal: Principal, input: CreateScheduleInput): Promise<ScheduleView> {
      const { organizationId } = principal;
      const checkField = input.namingSet === 'A' ? 'testId' : 'scenarioId';
      const check = await dataSource.getRepository(Check).findOneBy({ id: input.checkId, organizationId });
      if (!check) throw notFoundError('check', checkField);
      if (check.status !== 'active') {
        throw new AppError({
          kind: 'user',
          code: ErrorCode.CheckNotCompiled,
          status: 409,
          message: 'That check is a draft: only a compiled check (one whose run passed) can be scheduled',
          details: { field: checkField, status: check.status },
        });
      }
      await assertCapabilitiesRunning(dataSource, organizationId, ['live']);

      const schedule = Object.assign(new Schedule(), {
        id: randomUUID(),
        organizationId,
        repositoryId: check.repositoryId,
        checkId: check.id,
        namingSet: input.namingSet,
        cron: input.cron ?? null,
        intervalMinutes: input.intervalMinutes ?? null,
        timezone: input.timezone,
        baseUrl: input.baseUrl,
        networkAllowlist: input.networkAllowlist,
        enabled: input.enabled,
        queueJobId: null,
      });
      await dataSource.getRepository(Schedule).insert(schedule);
      let saved: Awaited<ReturnType<ScheduleRepeats['save']>>;
      try {
        saved = await repeats.save({
          scheduleId: schedule.id,
          cron: schedule.cron,
          intervalMinutes: schedule.intervalMinutes,
          timezone: schedule.timezone,
          enabled: schedule.enabled,
        });
      } catch (error) {
        await dataSource.getRepository(Schedule).delete({ id: schedule.id });
        throw operationalError(ErrorCode.ScheduleQueueFailed, 'The schedule could not be saved on the queue; nothing was kept, try again', { cause: error });
      }
      await dataSource.getRepository(Schedule).update({ id: schedule.id }, { queueJobId: saved.queueJobId });
      const stored = await scheduleOf(organizationId, schedule.id);
      return { schedule: stored, nextRunAt: saved.nextRunAt };
    },

    /** The organization's schedules, oldest first; at most `limit`. */
    async list(principal: Principal, options: { limit: number }): Promise<ScheduleView[]> {
      const { organizationId } = principal;
      const schedules = await dataSource.getRepository(Schedule).find({
        where: { organizationId },
        order: { createdAt: 'ASC', id: 'ASC' },
        take: options.limit,
      });
      const queueJobIds = schedules.flatMap((schedule) => (schedule.queueJobId === null ? [] : [schedule.queueJobId]));
      const next = queueJobIds.length === 0 ? new Map<string, Date | null>() : await repeats.nextRuns(queueJobIds);
      return schedules.map((schedule) => ({ schedule, nextRunAt: next.get(schedule.id) ?? null }));
    },

    /** One schedule with its next run and latest fires. */
    async get(principal: Principal, scheduleId: string): Promise<ScheduleDetail> {
      const { organizationId } = principal;
      const schedule = await scheduleOf(organizationId, scheduleId);
      const [nextRunAt, fires] = await Promise.all([
        nextRunOf(schedule),
        dataSource.getRepository(ScheduleFire).find({ where: { scheduleId }, order: { firedAt: 'DESC', id: 'ASC' }, take: RECENT_FIRES }),
      ]);
      return { schedule, nextRunAt, fires };
    },

    /**
     * Pauses (`false`) or resumes (`true`) a schedule: the row first, which every fire reads (a paused schedule's fire
     * does nothing), then its repeat job, saved again disabled or from the next run after now. A queue that refuses
     * the save leaves the schedule as it was (503).
     */
    async setEnabled(principal: Principal, scheduleId: string, enabled: boolean): Promise<ScheduleView> {
      const { organizationId } = principal;
      const schedule = await scheduleOf(organizationId, scheduleId);
      const schedules = dataSource.getRepository(Schedule);
      await schedules.update({ id: schedule.id, organizationId }, { enabled });
      let saved: Awaited<ReturnType<ScheduleRepeats['save']>>;
      try {
        saved = await repeats.save({ scheduleId: schedule.id, cron: schedule.cron, intervalMinutes: schedule.intervalMinutes, timezone: schedule.timezone, enabled });
      } catch (error) {
        await schedules.update({ id: schedule.id, organizationId }, { enabled: schedule.enabled });
        throw operationalError(ErrorCode.ScheduleQueueFailed, 'The schedule could not be saved on the queue; it is unchanged, try again', { cause: error });
      }
      if (saved.queueJobId !== schedule.queueJobId) await schedules.update({ id: schedule.id }, { queueJobId: saved.queueJobId });
      return { schedule: await scheduleOf(organizationId, schedule.id), nextRunAt: saved.nextRunAt };
    },

    /** Deletes the schedule (its fire records too) and then its repeat job. Jobs it already created stay. */
    async remove(principal: Principal, scheduleId: string): Promise<void> {
      const { organizationId } = principal;
      const schedule = await scheduleOf(organizationId, scheduleId);
      await dataSource.getRepository(Schedule).delete({ id: schedule.id, organizationId });
      await repeats.remove(schedule.id);
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
