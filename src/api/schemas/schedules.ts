import { z } from 'zod';
import { SET_A, SET_B, type NamingSet } from '../../core/naming.js';
import { idSchema, timestampSchema } from './common.js';

export const SCHEDULE_FIRE_OUTCOMES = ['queued', 'skipped', 'failed'] as const;

/** A schedule in the naming set it was created in; exactly one of `cron` and `intervalMinutes`. */
function scheduleFields(names: NamingSet) {
  return {
    scheduleId: idSchema,
    [names.checkId]: idSchema,
    [names.repositoryId]: idSchema,
    cron: z.string().optional(),
    intervalMinutes: z.number().int().optional(),
    timezone: z.string(),
    baseUrl: z.string(),
    networkAllowlist: z.array(z.string()),
    enabled: z.boolean(),
    nextRunAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
  };
}

function fireSchema(names: NamingSet) {
  return z.object({ at: timestampSchema, outcome: z.enum(SCHEDULE_FIRE_OUTCOMES), [names.id]: idSchema.nullable(), reason: z.string().nullable() });
}

/** Set A (`testId`) is tried first; a schedule created with `scenarioId` answers in Set B. */
export const scheduleSchema = z.union([z.object(scheduleFields(SET_A)), z.object(scheduleFields(SET_B))]);

/** GET /api/schedules/:id: also the latest fires, newest first. */
export const scheduleDetailSchema = z.union([
  z.object({ ...scheduleFields(SET_A), fires: z.array(fireSchema(SET_A)) }),
  z.object({ ...scheduleFields(SET_B), fires: z.array(fireSchema(SET_B)) }),
]);

export const scheduleListSchema = z.object({ schedules: z.array(scheduleSchema) });
