import { Router } from 'express';
import { SET_A, SET_B, type NamingSet } from '../core/naming.js';
import type { ScheduleDetail, ScheduleService, ScheduleView } from '../jobs/schedule-service.js';
import type { ScheduleFire } from '../store/entities/schedule-fire.entity.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { assertIdShape, guardPathIds, undecodablePathAsNotFound } from './ids.js';
import { iso, isoOrNull, responseOf } from './respond.js';
import { createBody, listQuery, patchBody } from './requests/schedules.js';
import { scheduleDetailSchema, scheduleListSchema, scheduleSchema } from './schemas/schedules.js';

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
