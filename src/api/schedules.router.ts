import { Router } from 'express';
import { z } from 'zod';
import { SET_A, SET_B, type NamingSet } from '../core/naming.js';
import {
  canonicalTimeZone,
  cronProblem,
  DEFAULT_TIME_ZONE,
  MAX_INTERVAL_MINUTES,
  MIN_INTERVAL_MINUTES,
  normalizeCron,
} from '../core/schedule.js';
import type { CreateScheduleInput, ScheduleDetail, ScheduleService, ScheduleView } from '../jobs/schedule-service.js';
import { columnLength } from '../store/column-limits.js';
import type { ScheduleFire } from '../store/entities/schedule-fire.entity.js';
import { Schedule } from '../store/entities/schedule.entity.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { hostnameList, httpUrl } from './fields.js';
import { assertIdShape, guardPathIds, undecodablePathAsNotFound } from './ids.js';
import { iso, isoOrNull, responseOf } from './respond.js';
import { scheduleDetailSchema, scheduleListSchema, scheduleSchema } from './schemas/schedules.js';

const id = z.string().min(1).max(64);

const cron = z
  .string()
  .max(columnLength(Schedule, 'cron'))
  .superRefine((expression, context) => {
    // Validity does not depend on the clock: `from` only decides which run would be next.
    const problem = cronProblem(expression, new Date(0));
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform(normalizeCron);

const timezone = z
  .string()
  .max(columnLength(Schedule, 'timezone'))
  .transform((name, context) => {
    const canonical = canonicalTimeZone(name);
    if (canonical === undefined) {
      context.addIssue({ code: 'custom', message: 'must be an IANA time zone name, such as Europe/Berlin or UTC' });
      return z.NEVER;
    }
    return canonical;
  })
  .default(DEFAULT_TIME_ZONE);

/** Unknown fields rejected; exactly one of testId/scenarioId and exactly one of cron/intervalMinutes. */
export const createBody = z
  .strictObject({
    testId: id.optional(),
    scenarioId: id.optional(),
    cron: cron.optional(),
    intervalMinutes: z.number().int().min(MIN_INTERVAL_MINUTES).max(MAX_INTERVAL_MINUTES).optional(),
    timezone,
    baseUrl: httpUrl(columnLength(Schedule, 'baseUrl')),
    networkAllowlist: hostnameList,
    enabled: z.boolean().default(true),
  })
  .refine((body) => (body.testId === undefined) !== (body.scenarioId === undefined), {
    message: 'give exactly one of testId and scenarioId',
    path: ['testId'],
  })
  .refine((body) => (body.cron === undefined) !== (body.intervalMinutes === undefined), {
    message: 'give exactly one of cron and intervalMinutes',
    path: ['cron'],
  })
  .transform(
    (body): CreateScheduleInput => ({
      checkId: (body.testId ?? body.scenarioId)!,
      namingSet: body.testId !== undefined ? 'A' : 'B',
      cron: body.cron,
      intervalMinutes: body.intervalMinutes,
      timezone: body.timezone,
      baseUrl: body.baseUrl,
      networkAllowlist: body.networkAllowlist,
      enabled: body.enabled,
    }),
  );

/** PATCH: pause or resume; nothing else of a schedule changes (delete it and create another). */
export const patchBody = z.strictObject({ enabled: z.boolean() });

const listQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(100) });

const namesOf = (set: 'A' | 'B'): NamingSet => (set === 'A' ? SET_A : SET_B);

/** A schedule in the naming set it was created in; only the timing it has (`cron` or `intervalMinutes`). */
function scheduleBody({ schedule, nextRunAt }: ScheduleView): Record<string, unknown> {
  const names = namesOf(schedule.namingSet);
  return {
    scheduleId: schedule.id,
    [names.checkId]: schedule.checkId,
    [names.repositoryId]: schedule.repositoryId,
    ...(schedule.cron !== null ? { cron: schedule.cron } : { intervalMinutes: schedule.intervalMinutes }),
    timezone: schedule.timezone,
    baseUrl: schedule.baseUrl,
    networkAllowlist: schedule.networkAllowlist,
    enabled: schedule.enabled,
    nextRunAt: isoOrNull(nextRunAt),
    createdAt: iso(schedule.createdAt),
  };
}

function fireBody(names: NamingSet, fire: ScheduleFire): Record<string, unknown> {
  return { at: iso(fire.firedAt), outcome: fire.outcome, [names.id]: fire.jobId, reason: fire.reason };
}

function detailBody(detail: ScheduleDetail): Record<string, unknown> {
  const names = namesOf(detail.schedule.namingSet);
  return { ...scheduleBody(detail), fires: detail.fires.map((fire) => fireBody(names, fire)) };
}

/**
 * `/api/schedules`: replays of a compiled check on a cron expression or an interval. A schedule answers in the
 * naming set it was created in (`testId` → Set A, `scenarioId` → Set B).
 */
export function createSchedulesRouter(schedules: ScheduleService): Router {
  const router = Router();
  router.use(jsonBody('64kb'));
  guardPathIds(router, { id: 'schedule' });

  router.post('/', async (req, res) => {
    const input = parse(createBody, req.body);
    assertIdShape(input.checkId, 'check', input.namingSet === 'A' ? 'testId' : 'scenarioId');
    const created = await schedules.create(principalOf(res), input);
    res.status(201).json(responseOf(scheduleSchema, scheduleBody(created)));
  });

  router.get('/', async (req, res) => {
    const { limit } = parse(listQuery, req.query);
    const list = await schedules.list(principalOf(res), { limit });
    res.json(responseOf(scheduleListSchema, { schedules: list.map(scheduleBody) }));
  });

  router.get('/:id', async (req, res) => {
    res.json(responseOf(scheduleDetailSchema, detailBody(await schedules.get(principalOf(res), req.params.id))));
  });

  router.patch('/:id', async (req, res) => {
    const { enabled } = parse(patchBody, req.body);
    res.json(responseOf(scheduleSchema, scheduleBody(await schedules.setEnabled(principalOf(res), req.params.id, enabled))));
  });

  router.delete('/:id', async (req, res) => {
    await schedules.remove(principalOf(res), req.params.id);
    res.status(204).end();
  });

  router.use(undecodablePathAsNotFound('schedule'));
  return router;
}
