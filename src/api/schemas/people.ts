/** People's routes: `GET /api/session`, `POST /api/session/organization`, and the admins' key, flag and installation routes. */
import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';

const roleSchema = z.enum(['admin', 'member']);
const organizationSchema = z.object({ id: idSchema, name: z.string(), role: roleSchema });

/** The signed-in person's standing; `csrfToken` goes in `x-csrf-token` on every state-changing request. */
export const sessionSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('setup_required'), missing: z.array(z.enum(['user', 'organization', 'membership'])), csrfToken: z.string() }),
  z.object({
    state: z.literal('ready'),
    user: z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() }),
    organizations: z.array(organizationSchema),
    organization: organizationSchema,
    csrfToken: z.string(),
  }),
]);
export type SessionResponse = z.infer<typeof sessionSchema>;

export const apiKeyCreatedSchema = z.object({ key: z.string(), prefix: z.string(), label: z.string().nullable(), createdBy: z.string() });

export const apiKeyListSchema = z.object({
  keys: z.array(
    z.object({
      id: idSchema,
      prefix: z.string(),
      label: z.string().nullable(),
      createdAt: timestampSchema,
      createdBy: z.string().nullable(),
      lastUsedAt: timestampSchema.nullable(),
      revokedAt: timestampSchema.nullable(),
      revokedBy: z.string().nullable(),
    }),
  ),
});

export const executionFlagsSchema = z.object({
  flags: z.array(z.object({ capability: z.enum(['live', 'ai']), paused: z.boolean(), pausedForEveryone: z.boolean() })),
});

export const installationConnectedSchema = z.object({ installationId: z.string(), account: z.string(), organizationId: idSchema, connectedBy: z.string() });

/**
 * GET /api/installations (admins): the code-host installations connected to this organization, then those reported
 * and connected nowhere yet (active or suspended; at most 500, newest reports first). `connectedOrganizationId` is this
 * organization's id or null, never another's. `account`, `accountType`, `repositorySelection`, `status` and `reportedAt`
 * are what the code host reported: null for one connected before its installation webhook arrived.
 */
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
export type InstallationListResponse = z.infer<typeof installationListSchema>;
