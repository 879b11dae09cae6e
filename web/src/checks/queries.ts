/**
 * The check screens' server state: the checks, one check, its source and schedules, the repositories they belong
 * to. Checks answer in naming set A (`testId`, `projectId`, `jobId`), as /api/checks does.
 */
import { z } from 'zod';
import { checkSchemas } from '../../../src/api/schemas/checks.js';
import { repositoryListSchema } from '../../../src/api/schemas/repositories.js';
import { scheduleListSchema } from '../../../src/api/schemas/schedules.js';
import type { CheckItem } from '../api/checks.js';
import { api } from '../api/client.js';

const schemas = checkSchemas.A;

/** A check of the list, with its set-A names read once (the shared schema types them by a computed key). */
export type CheckRow = CheckItem;

export const checkRow = (check: Record<string, unknown>): CheckRow => check as unknown as CheckRow;

export const CHECKS_KEY = ['checks'] as const;
export const REPOSITORIES_KEY = ['repositories'] as const;
export const SCHEDULES_KEY = ['schedules'] as const;
export const checkKey = (id: string) => ['checks', id] as const;

export const checksQuery = {
  queryKey: CHECKS_KEY,
  queryFn: ({ signal }: { signal: AbortSignal }) => api(schemas.list, '/api/checks?limit=200', { signal }),
};

export const repositoriesQuery = {
  queryKey: REPOSITORIES_KEY,
  queryFn: ({ signal }: { signal: AbortSignal }) => api(repositoryListSchema, '/api/repositories', { signal }),
};

export const schedulesQuery = {
  queryKey: SCHEDULES_KEY,
  queryFn: ({ signal }: { signal: AbortSignal }) => api(scheduleListSchema, '/api/schedules?limit=200', { signal }),
};

export const checkQuery = (id: string) => ({
  queryKey: checkKey(id),
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await api(schemas.detail, `/api/checks/${encodeURIComponent(id)}`, { signal })) as unknown as CheckDetail,
});

/**
 * GET /api/checks/:id read with set A's names. The shared schema validates it; its TypeScript type keys fields by a
 * naming set chosen at run time (an index signature), so the screens read it through these names.
 */
export interface CheckVersionBody {
  version: number;
  state: 'compiled' | 'proposed' | 'accepted' | 'superseded';
  basedOn: number | null;
  acceptedBy: string | null;
  acceptedAt: string | null;
  jobId: string | null;
  steps: Record<string, unknown>[];
  successCriteria: Record<string, unknown>[];
  createdAt: string;
}
export interface CheckRun {
  jobId: string;
  status: string;
  trigger: string;
  role: 'produced' | 'replayed' | 'attempted';
  createdAt: string;
}
export interface CheckDetail {
  check: CheckRow;
  versions: CheckVersionBody[];
  jobs: CheckRun[];
}
export const acceptedSchema = schemas.accepted;

/** `owner/name` of each repository by id. */
export function repositoryNames(list: z.output<typeof repositoryListSchema> | undefined): Map<string, string> {
  return new Map((list?.repositories ?? []).map((repository) => [repository.repositoryId, `${repository.owner}/${repository.name}`]));
}
