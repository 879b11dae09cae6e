import { z } from 'zod';

/** 200 of GET /healthz: the process is up. */
export const healthSchema = z.object({ status: z.literal('ok') });

/** What a process's readiness depends on: its database, the queue, a worker's browser. */
export const DEPENDENCIES = ['database', 'queue', 'browser'] as const;

/**
 * GET /readyz: 200 `ready`, or 503 `unavailable` naming the first dependency that is not ready, why (`database
 * unreachable`, `migrations pending`, …), and what each check said (a load balancer sends no traffic then).
 */
export const readinessSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ready') }),
  z.object({
    status: z.literal('unavailable'),
    dependency: z.enum(DEPENDENCIES),
    reason: z.string(),
    checks: z.partialRecord(z.enum(DEPENDENCIES), z.string()),
  }),
]);
