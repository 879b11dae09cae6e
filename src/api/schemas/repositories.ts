import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';
import { ingestionStateSchema } from './ingestions.js';

/** A connected repository: the fields of its connect request (spec 2.3), never secret values (only their names). */
export const repositorySchema = z.object({
  repositoryId: idSchema,
  provider: z.string(),
  providerInstallationId: z.string(),
  owner: z.string(),
  name: z.string(),
  defaultBranch: z.string(),
  cloneUrl: z.string(),
  baseUrl: z.string(),
  networkAllowlist: z.array(z.string()),
  testValueSecretRefs: z.record(z.string(), z.string()),
  evidenceProbeRefs: z.record(z.string(), z.object({ urlValueRef: z.string(), tokenValueRef: z.string() })),
  revision: z.string().nullable(),
  /** How its pull requests run, defaults filled in. */
  pullRequests: z.object({
    previewUrlTemplate: z.string().optional(),
    waitForDeployment: z.boolean(),
    deploymentEnvironment: z.string().optional(),
    runDrafts: z.boolean(),
    runForks: z.boolean(),
    /** Checks every pull request replays. */
    alwaysRun: z.array(z.string()),
    /** Patterns of files whose change replays every check (the default list unless the repository set its own). */
    sharedFiles: z.array(z.string()),
  }),
  allowedSideEffects: z.array(z.string()),
  createdAt: timestampSchema,
});
export type RepositoryBody = z.input<typeof repositorySchema>;

export const ingestionRunSchema = z.object({
  ingestionRunId: idSchema,
  status: z.string(),
  revision: z.string().nullable(),
  workflowRunId: idSchema.nullable(),
  createdAt: timestampSchema,
});

/** 202 of POST /api/repositories: onboarding queued. */
export const repositoryConnectedSchema = z.object({
  organizationId: idSchema,
  repositoryId: idSchema,
  ingestionRunId: idSchema,
  workflowRunId: idSchema,
});

export const repositoryListSchema = z.object({ repositories: z.array(repositorySchema) });
/** 200 of PATCH /api/repositories/:id. */
export const repositoryUpdatedSchema = z.object({ repository: repositorySchema });
/** 200 of GET /api/repositories/:id: `latestIngestion` is the newest run's state, step, commit and counts. */
export const repositoryDetailSchema = z.object({ repository: repositorySchema, latestIngestion: ingestionStateSchema.nullable(), ingestionRuns: z.array(ingestionRunSchema) });
