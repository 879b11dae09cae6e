/** The request schema of `POST /api/session/organization`; the OpenAPI document is generated from it. */
import { z } from 'zod';

export const organizationBody = z.strictObject({ organizationId: z.string().min(1).max(64) });
