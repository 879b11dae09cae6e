/**
 * PENDING (issue 27, helper `webapi`): `GET /api/installations` is added on the `webapi` branch with its schema
 * `installationListSchema` in src/api/schemas/people.ts (commit 04ad7dc). Until that is merged, this file holds the
 * same shape; when it is, import the shared schema in installations-screen.tsx instead and delete this file.
 */
import { z } from 'zod';
import { idSchema, timestampSchema } from '../../../src/api/schemas/common.js';

export const installationListSchema = z.object({
  installations: z.array(
    z.object({
      installationId: z.string(),
      account: z.string().nullable(),
      accountType: z.string().nullable(),
      repositorySelection: z.string().nullable(),
      status: z.enum(['active', 'suspended', 'deleted']).nullable(),
      connectedOrganizationId: idSchema.nullable(),
      connectedBy: z.string().nullable(),
      reportedAt: timestampSchema.nullable(),
    }),
  ),
});
