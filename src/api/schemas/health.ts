import { z } from 'zod';

/** 200 of GET /healthz: the process is up. */
export const healthSchema = z.object({ status: z.literal('ok') });

/** GET /readyz: 200 `ready`, or 503 `unavailable` with the reason (a load balancer sends no traffic then). */
export const readinessSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ready') }),
  z.object({ status: z.literal('unavailable'), reason: z.enum(['migrations pending', 'database unreachable']) }),
]);
