/** The request schemas of `/api/schedules`: the router parses with them; the OpenAPI document is generated from them. */
import { z } from 'zod';
import {
  canonicalTimeZone,
  cronProblem,
  DEFAULT_TIME_ZONE,
  MAX_INTERVAL_MINUTES,
  MIN_INTERVAL_MINUTES,
  normalizeCron,
} from '../../core/schedule.js';
import type { CreateScheduleInput } from '../../jobs/schedule-service.js';
import { columnLength } from '../../store/column-limits.js';
import { Schedule } from '../../store/entities/schedule.entity.js';
import { hostnameList, httpUrl } from '../fields.js';

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

export const listQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(100) });

