/** The request schemas of `/api/ingestions`: the router parses with them; the OpenAPI document is generated from them. */
import { z } from 'zod';

/** `?after=n`: the events after index n (-1, or absent: from the first). */
export const afterQuery = z.strictObject({ after: z.coerce.number().int().min(-1).max(Number.MAX_SAFE_INTEGER).optional() });
