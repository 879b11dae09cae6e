/**
 * PENDING (issue 27, helper `webapi`): `GET /api/installations` is being added on another branch with its schema
 * `installationListSchema` in src/api/schemas/people.ts. Until it is merged, this file holds the agreed shape; when it
 * is, import the shared schema instead and delete this file.
 */
import { z } from 'zod';

export const installationListSchema = z.object({
  installations: z.array(
    z.object({
      installationId: z.string(),
      account: z.string(),
      connectedOrganizationId: z.string().nullable(),
      connectedBy: z.string().nullable(),
      reportedAt: z.string(),
    }),
  ),
});
